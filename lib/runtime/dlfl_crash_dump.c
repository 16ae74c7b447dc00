/* dlfl_crash_dump.c: keeps gcov and LLVM profile coverage of a test that dies by a signal.
 *
 * gcov writes its .gcda files and LLVM's profile runtime its .profraw from exit-time code
 * (the program's destructors, an atexit handler), which a process killed by SIGSEGV or
 * SIGTERM never runs: a crashing test then covers nothing and every line ties. `dlfl
 * collect` preloads this library (LD_PRELOAD) into each test process. On a fatal signal it
 * leaves through exit(), which runs the program's exit-time code and so writes the
 * coverage, and then, from this library's own destructor, restores the default action and
 * raises the signal again, so the test still ends by that signal (its outcome stays a
 * crash). The destructor runs after the program's: the dynamic linker finalizes objects
 * in the reverse order of their initialization, and a preloaded library is initialized
 * before the program. Calling exit() from a signal handler is not async-signal-safe (a
 * crash inside malloc may deadlock in a destructor); the collector's SIGKILL after its
 * grace period bounds that case. A second fatal signal while exiting gets the default
 * action (SA_RESETHAND): the test dies as it would have without this library.
 *
 * Not effective for statically linked programs (LD_PRELOAD is ignored) and for programs
 * that install their own handler for these signals after start-up; dlfl collect says so
 * when a crashed test comes back without coverage. libc only; nothing here allocates.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM};

/* The signal being handled, raised again once the coverage is written. */
static volatile sig_atomic_t pending_signal;

/* A stack overflow is a SIGSEGV with no stack left: the handler runs on its own. */
static char alternate_stack[1 << 16];

static void on_fatal_signal(int signal_number) {
  pending_signal = signal_number;
  /* 128 + N is what a shell reports for a death by signal N: the status stays recognisable
   * should the destructor below never run. */
  exit(128 + signal_number);
}

__attribute__((constructor)) static void install_crash_dump(void) {
  stack_t stack;
  memset(&stack, 0, sizeof stack);
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  const int have_stack = sigaltstack(&stack, NULL) == 0;

  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_fatal_signal;
  action.sa_flags = SA_RESETHAND | (have_stack ? SA_ONSTACK : 0);
  /* Nothing else interrupts the exit path; the raise below unblocks its own signal. */
  sigfillset(&action.sa_mask);
  for (size_t i = 0; i < sizeof kFatalSignals / sizeof kFatalSignals[0]; ++i) {
    struct sigaction previous;
    /* A signal the parent set to be ignored (nohup) stays ignored. */
    if (sigaction(kFatalSignals[i], NULL, &previous) != 0 || previous.sa_handler == SIG_IGN) continue;
    sigaction(kFatalSignals[i], &action, NULL);
  }
}

__attribute__((destructor)) static void raise_pending_signal(void) {
  const int signal_number = pending_signal;
  if (signal_number == 0) return;
  signal(signal_number, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal_number);
  sigprocmask(SIG_UNBLOCK, &only, NULL);
  raise(signal_number);
}
