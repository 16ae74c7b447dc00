// The built-in suspiciousness formulas: definitions, zero-division rules, kernels.
//
// Sources: Naish, Lee, Ramamohanarao, "A model for spectra-based software diagnosis",
// TOSEM 20(3), 2011 (Table I: most similarity coefficients here); Jones & Harrold, ASE
// 2005 (Tarantula); Abreu et al., JSS 2009 (Ochiai, Barinel: Abreu et al., ASE 2009);
// Wong et al., IEEE TR 63(1), 2014 (DStar); Wong et al. 2007 (Wong1-3); Yoo, TOSEM 2012
// and Yoo et al. 2017 (GP02, GP03, GP13, GP19); Liblit et al., PLDI 2005 (SBI, CBI Inc);
// Gonzalez 2007 (Zoltar); Dallmeier et al. 2005 (Ample).
//
// Zero-division: unless a formula says otherwise, x/0 is +inf for x > 0, −inf for x < 0
// and 0 for x = 0 (rule "div"). Formula::score then stores ±inf as ±kInfiniteScore, so
// an ideal suspect (ef = F, ep = 0, hence ep + nf = 0) of DStar, Kulczynski1, M1, ...
// ranks first instead of being scored 0 as some tools do.
#include "formula_table.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace dlfl::detail {
namespace {

using A = Eigen::ArrayXd;
constexpr double kInf = std::numeric_limits<double>::infinity();

// num / den with the "div" rule above, element-wise. Eigen divides with SIMD; the zero
// denominators are then found with integer arithmetic (a floating comparison would keep
// the compiler from vectorizing: it may trap) and, when there are any, replaced one by one. (Eigen
// 3.4's select() runs one scalar at a time.)
A div(const A& num, const A& den) {
  A out = num / den;
  const double* d = den.data();
  // A denominator is ±0 when its magnitude bits m are 0, and then only does m - 1 wrap
  // to set bit 63 (m < 2^63): and, subtract, or, all in SSE2 (which has no 64-bit
  // compare), so that this loop vectorizes on the baseline.
  std::uint64_t wrapped = 0;
  for (Eigen::Index i = 0; i < den.size(); ++i) wrapped |= (std::bit_cast<std::uint64_t>(d[i]) & ~(1ull << 63)) - 1;
  if (!(wrapped >> 63)) return out;
  for (Eigen::Index i = 0; i < den.size(); ++i)
    if (d[i] == 0.0) out[i] = num[i] > 0.0 ? kInf : num[i] < 0.0 ? -kInf : 0.0;
  return out;
}

constexpr const char* kDiv = "x/0 = +inf (ranks first) for x > 0, 0 for x = 0";
constexpr const char* kNone = "no division";

A tarantula(const Counts& c) {
  const A fail_ratio = div(c.ef, c.ef + c.nf), pass_ratio = div(c.ep, c.ep + c.np);
  return div(fail_ratio, fail_ratio + pass_ratio);
}
A ochiai(const Counts& c) { return div(c.ef, ((c.ef + c.nf) * (c.ef + c.ep)).sqrt()); }
A ochiai2(const Counts& c) {
  return div(c.ef * c.np, ((c.ef + c.ep) * (c.nf + c.np) * (c.ef + c.nf) * (c.ep + c.np)).sqrt());
}
A dstar2(const Counts& c) { return dstar(c, 2.0); }
A dstar3(const Counts& c) { return dstar(c, 3.0); }
A op1(const Counts& c) { return (c.nf > 0.0).select(A::Constant(c.size(), -1.0), c.np); }
A op2(const Counts& c) { return c.ef - c.ep / (c.ep + c.np + 1.0); }
A jaccard(const Counts& c) { return div(c.ef, c.ef + c.nf + c.ep); }
A anderberg(const Counts& c) { return div(c.ef, c.ef + 2.0 * (c.nf + c.ep)); }
A sorensen_dice(const Counts& c) { return div(2.0 * c.ef, 2.0 * c.ef + c.nf + c.ep); }
A dice(const Counts& c) { return div(2.0 * c.ef, c.ef + c.nf + c.ep); }
A kulczynski1(const Counts& c) { return div(c.ef, c.nf + c.ep); }
A kulczynski2(const Counts& c) { return 0.5 * (div(c.ef, c.ef + c.nf) + div(c.ef, c.ef + c.ep)); }
A russell_rao(const Counts& c) { return div(c.ef, c.ef + c.nf + c.ep + c.np); }
A hamann(const Counts& c) { return div(c.ef + c.np - c.nf - c.ep, c.ef + c.nf + c.ep + c.np); }
A simple_matching(const Counts& c) { return div(c.ef + c.np, c.ef + c.nf + c.ep + c.np); }
A sokal(const Counts& c) {
  return div(2.0 * (c.ef + c.np), 2.0 * (c.ef + c.np) + c.nf + c.ep);
}
A rogers_tanimoto(const Counts& c) { return div(c.ef + c.np, c.ef + c.np + 2.0 * (c.nf + c.ep)); }
A goodman(const Counts& c) { return div(2.0 * c.ef - c.nf - c.ep, 2.0 * c.ef + c.nf + c.ep); }
A hamming(const Counts& c) { return c.ef + c.np; }
A euclid(const Counts& c) { return (c.ef + c.np).sqrt(); }
A m1(const Counts& c) { return div(c.ef + c.np, c.nf + c.ep); }
A m2(const Counts& c) { return div(c.ef, c.ef + c.np + 2.0 * (c.nf + c.ep)); }
A overlap(const Counts& c) { return div(c.ef, c.ef.min(c.nf).min(c.ep)); }
A wong1(const Counts& c) { return c.ef; }
A wong2(const Counts& c) { return c.ef - c.ep; }
A wong3(const Counts& c) {
  const A h = (c.ep <= 2.0).select(c.ep, (c.ep <= 10.0).select(2.0 + 0.1 * (c.ep - 2.0),
                                                               2.8 + 0.001 * (c.ep - 10.0)));
  return c.ef - h;
}
A gp02(const Counts& c) { return 2.0 * (c.ef + c.np.sqrt()) + c.ep.sqrt(); }
A gp03(const Counts& c) { return (c.ef.square() - c.ep.sqrt()).abs().sqrt(); }
A gp13(const Counts& c) {
  return (c.ef > 0.0).select(c.ef * (1.0 + 1.0 / (2.0 * c.ep + c.ef)), 0.0);
}
A gp19(const Counts& c) { return c.ef * (c.ep - c.ef + c.nf - c.np).abs().sqrt(); }
A ample(const Counts& c) { return (div(c.ef, c.ef + c.nf) - div(c.ep, c.ep + c.np)).abs(); }
A ample2(const Counts& c) { return div(c.ef, c.ef + c.nf) - div(c.ep, c.ep + c.np); }
A zoltar(const Counts& c) {
  const A safe_ef = (c.ef > 0.0).select(c.ef, 1.0);
  return (c.ef > 0.0).select(c.ef / (c.ef + c.nf + c.ep + 10000.0 * c.nf * c.ep / safe_ef), 0.0);
}
A barinel(const Counts& c) {
  return (c.ef > 0.0).select(1.0 - c.ep / (c.ep + c.ef), 0.0);
}
A sbi(const Counts& c) { return div(c.ef, c.ef + c.ep); }
A cbi_inc(const Counts& c) {
  return div(c.ef, c.ef + c.ep) - div(c.ef + c.nf, c.ef + c.nf + c.ep + c.np);
}
A geometric_mean(const Counts& c) {
  return div(c.ef * c.np - c.nf * c.ep,
             ((c.ef + c.ep) * (c.np + c.nf) * (c.ef + c.nf) * (c.ep + c.np)).sqrt());
}
A harmonic_mean(const Counts& c) {
  const A a = (c.ef + c.ep) * (c.np + c.nf), b = (c.ef + c.nf) * (c.ep + c.np);
  return div((c.ef * c.np - c.nf * c.ep) * (a + b), a * b);
}
A arithmetic_mean(const Counts& c) {
  return div(2.0 * c.ef * c.np - 2.0 * c.nf * c.ep,
             (c.ef + c.ep) * (c.np + c.nf) + (c.ef + c.nf) * (c.ep + c.np));
}
A cohen(const Counts& c) {
  return div(2.0 * c.ef * c.np - 2.0 * c.nf * c.ep,
             (c.ef + c.ep) * (c.np + c.ep) + (c.ef + c.nf) * (c.nf + c.np));
}
A scott(const Counts& c) {
  return div(4.0 * c.ef * c.np - 4.0 * c.nf * c.ep - (c.nf - c.ep).square(),
             (2.0 * c.ef + c.nf + c.ep) * (2.0 * c.np + c.nf + c.ep));
}
A fleiss(const Counts& c) {
  return div(4.0 * c.ef * c.np - 4.0 * c.nf * c.ep - (c.nf - c.ep).square(),
             (2.0 * c.ef + c.nf + c.ep) + (2.0 * c.np + c.nf + c.ep));
}
A rogot1(const Counts& c) {
  return 0.5 * (div(c.ef, 2.0 * c.ef + c.nf + c.ep) + div(c.np, 2.0 * c.np + c.nf + c.ep));
}
A rogot2(const Counts& c) {
  return 0.25 * (div(c.ef, c.ef + c.ep) + div(c.ef, c.ef + c.nf) + div(c.np, c.np + c.ep) +
                 div(c.np, c.np + c.nf));
}
A baroni_urbani_buser(const Counts& c) {
  const A root = (c.ef * c.np).sqrt();
  return div(root + c.ef, root + c.ef + c.ep + c.nf);
}
A binary(const Counts& c) { return (c.nf > 0.0).select(A::Zero(c.size()), 1.0); }

const BuiltinFormula kTable[] = {
    {{"ochiai", "ef / sqrt((ef+nf)*(ef+ep))", kDiv, "Abreu et al., JSS 2009"}, ochiai},
    {{"tarantula", "(ef/(ef+nf)) / (ef/(ef+nf) + ep/(ep+np))",
      "ef/(ef+nf) = 0 when F = 0, ep/(ep+np) = 0 when P = 0, then 0/0 = 0", "Jones & Harrold, ASE 2005"}, tarantula},
    {{"dstar2", "ef^2 / (ep+nf)", kDiv, "Wong et al., IEEE TR 2014"}, dstar2},
    {{"dstar3", "ef^3 / (ep+nf)", kDiv, "Wong et al., IEEE TR 2014"}, dstar3},
    {{"op2", "ef - ep/(ep+np+1)", "denominator >= 1", "Naish et al., TOSEM 2011"}, op2},
    {{"op1", "-1 if nf > 0 else np", kNone, "Naish et al., TOSEM 2011"}, op1},
    {{"barinel", "1 - ep/(ep+ef)", "0 when ef = 0", "Abreu et al., ASE 2009"}, barinel},
    {{"ochiai2", "ef*np / sqrt((ef+ep)*(nf+np)*(ef+nf)*(ep+np))", kDiv, "Naish et al., TOSEM 2011"}, ochiai2},
    {{"jaccard", "ef / (ef+nf+ep)", kDiv, "Naish et al., TOSEM 2011"}, jaccard},
    {{"kulczynski1", "ef / (nf+ep)", kDiv, "Naish et al., TOSEM 2011"}, kulczynski1},
    {{"kulczynski2", "(ef/(ef+nf) + ef/(ef+ep)) / 2", kDiv, "Naish et al., TOSEM 2011"}, kulczynski2},
    {{"russell_rao", "ef / (ef+nf+ep+np)", kDiv, "Naish et al., TOSEM 2011"}, russell_rao},
    {{"sorensen_dice", "2*ef / (2*ef+nf+ep)", kDiv, "Naish et al., TOSEM 2011"}, sorensen_dice},
    {{"dice", "2*ef / (ef+nf+ep)", kDiv, "Naish et al., TOSEM 2011"}, dice},
    {{"anderberg", "ef / (ef+2*(nf+ep))", kDiv, "Naish et al., TOSEM 2011"}, anderberg},
    {{"simple_matching", "(ef+np) / (ef+nf+ep+np)", kDiv, "Naish et al., TOSEM 2011"}, simple_matching},
    {{"sokal", "2*(ef+np) / (2*(ef+np)+nf+ep)", kDiv, "Naish et al., TOSEM 2011"}, sokal},
    {{"rogers_tanimoto", "(ef+np) / (ef+np+2*(nf+ep))", kDiv, "Naish et al., TOSEM 2011"}, rogers_tanimoto},
    {{"hamann", "(ef+np-nf-ep) / (ef+nf+ep+np)", kDiv, "Naish et al., TOSEM 2011"}, hamann},
    {{"goodman", "(2*ef-nf-ep) / (2*ef+nf+ep)", kDiv, "Naish et al., TOSEM 2011"}, goodman},
    {{"hamming", "ef + np", kNone, "Naish et al., TOSEM 2011"}, hamming},
    {{"euclid", "sqrt(ef + np)", kNone, "Naish et al., TOSEM 2011"}, euclid},
    {{"m1", "(ef+np) / (nf+ep)", kDiv, "Naish et al., TOSEM 2011"}, m1},
    {{"m2", "ef / (ef+np+2*(nf+ep))", kDiv, "Naish et al., TOSEM 2011"}, m2},
    {{"overlap", "ef / min(ef, nf, ep)", kDiv, "Naish et al., TOSEM 2011"}, overlap},
    {{"wong1", "ef", kNone, "Wong et al., COMPSAC 2007"}, wong1},
    {{"wong2", "ef - ep", kNone, "Wong et al., COMPSAC 2007"}, wong2},
    {{"wong3", "ef - h; h = ep if ep<=2, 2+0.1*(ep-2) if ep<=10, else 2.8+0.001*(ep-10)", kNone,
      "Wong et al., COMPSAC 2007"}, wong3},
    {{"gp02", "2*(ef+sqrt(np)) + sqrt(ep)", kNone, "Yoo, SSBSE 2012"}, gp02},
    {{"gp03", "sqrt(abs(ef^2 - sqrt(ep)))", kNone, "Yoo, SSBSE 2012"}, gp03},
    {{"gp13", "ef * (1 + 1/(2*ep+ef))", "0 when ef = 0", "Yoo, SSBSE 2012"}, gp13},
    {{"gp19", "ef * sqrt(abs(ep-ef+nf-np))", kNone, "Yoo, SSBSE 2012"}, gp19},
    {{"ample", "abs(ef/(ef+nf) - ep/(ep+np))", kDiv, "Dallmeier et al., ECOOP 2005"}, ample},
    {{"ample2", "ef/(ef+nf) - ep/(ep+np)", kDiv, "Naish et al., TOSEM 2011"}, ample2},
    {{"zoltar", "ef / (ef+nf+ep + 10000*nf*ep/ef)", "0 when ef = 0", "Gonzalez, 2007"}, zoltar},
    {{"sbi", "ef / (ef+ep)", kDiv, "Liblit et al., PLDI 2005"}, sbi},
    {{"cbi_inc", "ef/(ef+ep) - (ef+nf)/(ef+nf+ep+np)", kDiv, "Liblit et al., PLDI 2005"}, cbi_inc},
    {{"geometric_mean", "(ef*np - nf*ep) / sqrt((ef+ep)*(np+nf)*(ef+nf)*(ep+np))", kDiv,
      "Naish et al., TOSEM 2011"}, geometric_mean},
    {{"harmonic_mean",
      "(ef*np - nf*ep) * ((ef+ep)*(np+nf) + (ef+nf)*(ep+np)) / ((ef+ep)*(np+nf)*(ef+nf)*(ep+np))", kDiv,
      "Naish et al., TOSEM 2011"}, harmonic_mean},
    {{"arithmetic_mean", "(2*ef*np - 2*nf*ep) / ((ef+ep)*(np+nf) + (ef+nf)*(ep+np))", kDiv,
      "Naish et al., TOSEM 2011"}, arithmetic_mean},
    {{"cohen", "(2*ef*np - 2*nf*ep) / ((ef+ep)*(np+ep) + (ef+nf)*(nf+np))", kDiv,
      "Naish et al., TOSEM 2011"}, cohen},
    {{"scott", "(4*ef*np - 4*nf*ep - (nf-ep)^2) / ((2*ef+nf+ep)*(2*np+nf+ep))", kDiv,
      "Naish et al., TOSEM 2011"}, scott},
    {{"fleiss", "(4*ef*np - 4*nf*ep - (nf-ep)^2) / ((2*ef+nf+ep) + (2*np+nf+ep))", kDiv,
      "Naish et al., TOSEM 2011"}, fleiss},
    {{"rogot1", "(ef/(2*ef+nf+ep) + np/(2*np+nf+ep)) / 2", kDiv, "Naish et al., TOSEM 2011"}, rogot1},
    {{"rogot2", "(ef/(ef+ep) + ef/(ef+nf) + np/(np+ep) + np/(np+nf)) / 4", kDiv,
      "Naish et al., TOSEM 2011"}, rogot2},
    {{"baroni_urbani_buser", "(sqrt(ef*np) + ef) / (sqrt(ef*np) + ef + ep + nf)", kDiv,
      "Naish et al., TOSEM 2011"}, baroni_urbani_buser},
    {{"binary", "0 if nf > 0 else 1", kNone, "Naish et al., TOSEM 2011"}, binary},
};

}  // namespace

A dstar(const Counts& c, double star) { return div(c.ef.pow(star), c.ep + c.nf); }

std::span<const BuiltinFormula> builtin_formula_table() { return kTable; }

}  // namespace dlfl::detail
