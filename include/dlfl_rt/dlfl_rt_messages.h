/* dlfl_rt_messages: the failure messages file the GoogleTest listener writes when
 * DLFL_RT_MESSAGES names one (`dlfl collect --runtime` sets it).
 *
 * Why a file of its own: the collector used to run the binary with --gtest_output=json
 * only for these messages, and GoogleTest's JSON report of every test costs ~8 us per test
 * (more than a small test itself); this file holds the failing tests only.
 *
 * Layout (text header, then records appended with one write(2) each, O_APPEND):
 *
 *   DLFL_RT_MESSAGES_MAGIC "\n"
 *   "failure" TAB <test name> TAB <N, decimal> "\n" <N bytes of message> "\n"
 *
 * one record per failing run of a test, in the order the runs ended. The message is what
 * GoogleTest's JSON report gives as the test's "failures": per failed part
 * "FILE:LINE\nMESSAGE" ("unknown file" without a file, no ":LINE" without a line), the
 * parts joined by a blank line. The listener creates the file (header only) when it is
 * registered, so a run that writes it tells the collector this listener records messages.
 * A record cut short (the process died writing it) ends the file and is ignored.
 */
#ifndef DLFL_RT_DLFL_RT_MESSAGES_H
#define DLFL_RT_DLFL_RT_MESSAGES_H

#define DLFL_RT_MESSAGES_ENV "DLFL_RT_MESSAGES"
#define DLFL_RT_MESSAGES_MAGIC "dlfl-rt-messages 1"

#endif /* DLFL_RT_DLFL_RT_MESSAGES_H */
