// Cost of the expression engine's evaluators: f, sparse J_x, dense J_p and
// v^T J (vjp, both J_x^T and J_p^T) with 1, 4 and 8 lanes, on camkii.ode
// (21 states, 59 parameters), on a generated 500-state sparse model, and on
// chua.ode; f against hand-written C functions of chua and camkii. And one
// stage of an adjoint sweep of glv:200 with 201 vectors (erk_adjoint's S(T)),
// builtin and recorded: vjp_x + vjp_p + adding J_p^T W into mu against the
// fused vjp_accumulate.
//
// Run: build/bin/bench_expr   (benchmarks/make_results.py writes RESULTS.md)
// The models are read from $ODESENS_SHARED_DIR/models/ode, by default
// ../shared next to the repository.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"

namespace {

std::string shared_dir() {
  if (const char* env = std::getenv("ODESENS_SHARED_DIR")) return env;
  return ODESENS_DEFAULT_SHARED_DIR;
}

// ---- hand-written right-hand sides, written for this benchmark ----

// Chua's circuit, chua.ode.
void chua_hand(double, const double* x, const double* p, double* f) {
  const double g = -8.0 / 7.0 * x[0] + 4.0 / 63.0 * x[0] * x[0] * x[0];
  f[0] = p[0] * (x[1] - x[0] - g);
  f[1] = x[0] - x[1] + x[2];
  f[2] = -p[1] * x[1];
}

// CaMKII, camkii.ode, statement by statement (x^(-1) written as a division,
// r^2 as r*r; the bookkeeping lets that no right-hand side uses are left out).
void camkii_hand(double t, const double* x, const double* p, double* f) {
  const double kf__CaM__Ca = p[0];
  const double kf__CaM_Ca1__Ca = p[1];
  const double kf__CaM_Ca2__Ca = p[2];
  const double kf__CaM_Ca3__Ca = p[3];
  const double kf__CaM__PP2B = p[4];
  const double kf__CaM_Ca1__PP2B = p[5];
  const double kf__CaM_Ca2__PP2B = p[6];
  const double kf__CaM_Ca3__PP2B = p[7];
  const double kf__CaM_Ca4__PP2B = p[8];
  const double kf__PP2B_CaM__Ca = p[9];
  const double kf__PP2B_CaM_Ca1__Ca = p[10];
  const double kf__PP2B_CaM_Ca2__Ca = p[11];
  const double kf__PP2B_CaM_Ca3__Ca = p[12];
  const double KD__CaM_Ca3__Ca = p[13];
  const double KD__CaM_Ca2__Ca = p[14];
  const double KD__CaM_Ca1__Ca = p[15];
  const double KD__CaM__Ca = p[16];
  const double KD__CaM_Ca4__PP2B = p[17];
  const double KD__PP2B_CaM_Ca3__Ca = p[18];
  const double KD__PP2B_CaM_Ca2__Ca = p[19];
  const double KD__PP2B_CaM_Ca1__Ca = p[20];
  const double KD__PP2B_CaM__Ca = p[21];
  const double kf__CaM__CaMKII = p[22];
  const double kf__CaMKII_CaM_Ca3__Ca = p[23];
  const double kf__CaMKII_CaM_Ca2__Ca = p[24];
  const double kf__CaMKII_CaM_Ca1__Ca = p[25];
  const double kf__CaMKII_CaM__Ca = p[26];
  const double kf__CaM_Ca1__CaMKII = p[27];
  const double kf__CaM_Ca2__CaMKII = p[28];
  const double kf__CaM_Ca3__CaMKII = p[29];
  const double kf__CaM_Ca4__CaMKII = p[30];
  const double KD__CaM_Ca4__CaMKII = p[31];
  const double KD__CaMKII_CaM_Ca3__Ca = p[32];
  const double KD__CaMKII_CaM_Ca2__Ca = p[33];
  const double KD__CaMKII_CaM_Ca1__Ca = p[34];
  const double KD__CaMKII_CaM__Ca = p[35];
  const double kf__pCaMKII_CaM_Ca3__Ca = p[36];
  const double kf__CaM__pCaMKIIa = p[37];
  const double kf__CaM_Ca1__pCaMKIIa = p[38];
  const double kf__CaM_Ca2__pCaMKIIa = p[39];
  const double kf__CaM_Ca3__pCaMKIIa = p[40];
  const double kf__pCaMKII_CaM_Ca2__Ca = p[41];
  const double kf__pCaMKII_CaM_Ca1__Ca = p[42];
  const double kf__CaM_Ca4__pCaMKIIa = p[43];
  const double kf__pCaMKII_CaM__Ca = p[44];
  const double KD__pCaMKII_CaM_Ca3__Ca = p[45];
  const double KD__pCaMKII_CaM_Ca2__Ca = p[46];
  const double KD__pCaMKII_CaM_Ca1__Ca = p[47];
  const double KD__pCaMKII_CaM__Ca = p[48];
  const double KD__CaM_Ca4__pCaMKIIa = p[49];
  const double kautMax = p[50];
  const double kf__PP1__pCaMKIIa = p[51];
  const double kr__PP1__pCaMKIIa = p[52];
  const double kcat__PP1__pCaMKIIa = p[53];
  const double Ca_set = p[54];
  const double PP1_0 = p[55];
  const double CaMKII_0 = p[56];
  const double CaM_0 = p[57];
  const double PP2B_0 = p[58];
  const double CaM_Ca1 = x[0];
  const double CaM_Ca2 = x[1];
  const double CaM_Ca3 = x[2];
  const double CaM_Ca4 = x[3];
  const double PP2B_CaM = x[4];
  const double PP2B_CaM_Ca1 = x[5];
  const double PP2B_CaM_Ca2 = x[6];
  const double PP2B_CaM_Ca3 = x[7];
  const double PP2B_CaM_Ca4 = x[8];
  const double CaMKII_CaM = x[9];
  const double CaMKII_CaM_Ca1 = x[10];
  const double CaMKII_CaM_Ca2 = x[11];
  const double CaMKII_CaM_Ca3 = x[12];
  const double CaMKII_CaM_Ca4 = x[13];
  const double pCaMKII_CaM_Ca4 = x[14];
  const double pCaMKIIa = x[15];
  const double pCaMKII_CaM_Ca3 = x[16];
  const double pCaMKII_CaM_Ca2 = x[17];
  const double pCaMKII_CaM_Ca1 = x[18];
  const double pCaMKII_CaM = x[19];
  const double PP1__pCaMKIIa = x[20];
  const double a = 3.90264;
  const double b = 2.86972;
  const double s = 1e-5;
  const double KD__CaM_Ca3__PP2B = KD__CaM_Ca3__Ca*KD__CaM_Ca4__PP2B*(1.0/KD__PP2B_CaM_Ca3__Ca);
  const double KD__CaM_Ca2__PP2B = (1.0/KD__PP2B_CaM_Ca2__Ca)*KD__CaM_Ca3__PP2B*KD__CaM_Ca2__Ca;
  const double KD__CaM_Ca1__PP2B = KD__CaM_Ca1__Ca*(1.0/KD__PP2B_CaM_Ca1__Ca)*KD__CaM_Ca2__PP2B;
  const double KD__CaM__PP2B = KD__CaM_Ca1__PP2B*KD__CaM__Ca*(1.0/KD__PP2B_CaM__Ca);
  const double KD__CaM_Ca3__CaMKII = KD__CaM_Ca4__CaMKII*KD__CaM_Ca3__Ca*(1.0/KD__CaMKII_CaM_Ca3__Ca);
  const double KD__CaM_Ca2__CaMKII = KD__CaM_Ca3__CaMKII*KD__CaM_Ca2__Ca*(1.0/KD__CaMKII_CaM_Ca2__Ca);
  const double KD__CaM_Ca1__CaMKII = KD__CaM_Ca2__CaMKII*KD__CaM_Ca1__Ca*(1.0/KD__CaMKII_CaM_Ca1__Ca);
  const double KD__CaM__CaMKII = KD__CaM_Ca1__CaMKII*KD__CaM__Ca*(1.0/KD__CaMKII_CaM__Ca);
  const double KD__CaM_Ca3__pCaMKIIa = KD__CaM_Ca3__Ca*(1.0/KD__pCaMKII_CaM_Ca3__Ca)*KD__CaM_Ca4__pCaMKIIa;
  const double KD__CaM_Ca2__pCaMKIIa = KD__CaM_Ca2__Ca*(1.0/KD__pCaMKII_CaM_Ca2__Ca)*KD__CaM_Ca3__pCaMKIIa;
  const double KD__CaM_Ca1__pCaMKIIa = KD__CaM_Ca1__Ca*(1.0/KD__pCaMKII_CaM_Ca1__Ca)*KD__CaM_Ca2__pCaMKIIa;
  const double KD__CaM__pCaMKIIa = KD__CaM__Ca*(1.0/KD__pCaMKII_CaM__Ca)*KD__CaM_Ca1__pCaMKIIa;
  const double kr__CaM_Ca3__Ca = kf__CaM_Ca3__Ca*KD__CaM_Ca3__Ca;
  const double kr__CaM_Ca2__Ca = kf__CaM_Ca2__Ca*KD__CaM_Ca2__Ca;
  const double kr__CaM_Ca1__Ca = KD__CaM_Ca1__Ca*kf__CaM_Ca1__Ca;
  const double kr__CaM__Ca = KD__CaM__Ca*kf__CaM__Ca;
  const double kr__CaM_Ca4__PP2B = KD__CaM_Ca4__PP2B*kf__CaM_Ca4__PP2B;
  const double kr__CaM_Ca3__PP2B = KD__CaM_Ca3__PP2B*kf__CaM_Ca3__PP2B;
  const double kr__CaM_Ca2__PP2B = kf__CaM_Ca2__PP2B*KD__CaM_Ca2__PP2B;
  const double kr__CaM_Ca1__PP2B = KD__CaM_Ca1__PP2B*kf__CaM_Ca1__PP2B;
  const double kr__CaM__PP2B = KD__CaM__PP2B*kf__CaM__PP2B;
  const double kr__PP2B_CaM_Ca3__Ca = kf__PP2B_CaM_Ca3__Ca*KD__PP2B_CaM_Ca3__Ca;
  const double kr__PP2B_CaM_Ca2__Ca = KD__PP2B_CaM_Ca2__Ca*kf__PP2B_CaM_Ca2__Ca;
  const double kr__PP2B_CaM_Ca1__Ca = kf__PP2B_CaM_Ca1__Ca*KD__PP2B_CaM_Ca1__Ca;
  const double kr__PP2B_CaM__Ca = kf__PP2B_CaM__Ca*KD__PP2B_CaM__Ca;
  const double kr__CaM_Ca4__CaMKII = KD__CaM_Ca4__CaMKII*kf__CaM_Ca4__CaMKII;
  const double kr__CaM_Ca3__CaMKII = kf__CaM_Ca3__CaMKII*KD__CaM_Ca3__CaMKII;
  const double kr__CaM_Ca2__CaMKII = KD__CaM_Ca2__CaMKII*kf__CaM_Ca2__CaMKII;
  const double kr__CaM_Ca1__CaMKII = KD__CaM_Ca1__CaMKII*kf__CaM_Ca1__CaMKII;
  const double kr__CaM__CaMKII = kf__CaM__CaMKII*KD__CaM__CaMKII;
  const double kr__CaMKII_CaM_Ca3__Ca = kf__CaMKII_CaM_Ca3__Ca*KD__CaMKII_CaM_Ca3__Ca;
  const double kr__CaMKII_CaM_Ca2__Ca = kf__CaMKII_CaM_Ca2__Ca*KD__CaMKII_CaM_Ca2__Ca;
  const double kr__CaMKII_CaM_Ca1__Ca = kf__CaMKII_CaM_Ca1__Ca*KD__CaMKII_CaM_Ca1__Ca;
  const double kr__CaMKII_CaM__Ca = kf__CaMKII_CaM__Ca*KD__CaMKII_CaM__Ca;
  const double kr__pCaMKII_CaM_Ca3__Ca = KD__pCaMKII_CaM_Ca3__Ca*kf__pCaMKII_CaM_Ca3__Ca;
  const double kr__pCaMKII_CaM_Ca2__Ca = kf__pCaMKII_CaM_Ca2__Ca*KD__pCaMKII_CaM_Ca2__Ca;
  const double kr__pCaMKII_CaM_Ca1__Ca = KD__pCaMKII_CaM_Ca1__Ca*kf__pCaMKII_CaM_Ca1__Ca;
  const double kr__pCaMKII_CaM__Ca = kf__pCaMKII_CaM__Ca*KD__pCaMKII_CaM__Ca;
  const double kr__CaM_Ca4__pCaMKIIa = KD__CaM_Ca4__pCaMKIIa*kf__CaM_Ca4__pCaMKIIa;
  const double kr__CaM_Ca3__pCaMKIIa = kf__CaM_Ca3__pCaMKIIa*KD__CaM_Ca3__pCaMKIIa;
  const double kr__CaM_Ca2__pCaMKIIa = KD__CaM_Ca2__pCaMKIIa*kf__CaM_Ca2__pCaMKIIa;
  const double kr__CaM_Ca1__pCaMKIIa = kf__CaM_Ca1__pCaMKIIa*KD__CaM_Ca1__pCaMKIIa;
  const double kr__CaM__pCaMKIIa = KD__CaM__pCaMKIIa*kf__CaM__pCaMKIIa;
  const double logistic = (1.0/(1.0 + std::exp(-10.0*t)));
  const double Ca = Ca_set*logistic;
  const double PP1 = -PP1__pCaMKIIa + PP1_0;
  const double CaMKII = -CaMKII_CaM_Ca1 - pCaMKII_CaM_Ca2 + PP1 - pCaMKII_CaM_Ca4 - CaMKII_CaM_Ca2 - pCaMKII_CaM_Ca1 - pCaMKIIa - PP1_0 - CaMKII_CaM_Ca3 - CaMKII_CaM - pCaMKII_CaM - pCaMKII_CaM_Ca3 + CaMKII_0 - CaMKII_CaM_Ca4;
  const double CaM = -PP2B_CaM_Ca3 - PP2B_CaM - PP1 + CaM_0 - CaM_Ca2 - PP2B_CaM_Ca4 - PP2B_CaM_Ca1 + CaMKII - CaM_Ca3 + pCaMKIIa + PP1_0 - PP2B_CaM_Ca2 - CaM_Ca4 - CaMKII_0 - CaM_Ca1;
  const double PP2B = -PP2B_CaM_Ca3 - PP2B_CaM - PP2B_CaM_Ca4 - PP2B_CaM_Ca1 + PP2B_0 - PP2B_CaM_Ca2;
  const double totalCaMKII = CaMKII_CaM_Ca1 + pCaMKII_CaM_Ca2 + pCaMKII_CaM_Ca4 + CaMKII_CaM_Ca2 + pCaMKII_CaM_Ca1 + CaMKII + pCaMKIIa + CaMKII_CaM_Ca3 + CaMKII_CaM + pCaMKII_CaM + pCaMKII_CaM_Ca3 + CaMKII_CaM_Ca4;
  const double r = (pCaMKII_CaM_Ca4 + CaMKII_CaM_Ca4)*(1.0/(s + totalCaMKII));
  const double pairedCaMKIIc = (r*r)*a*(1.0/(1.0 + r*b));
  const double ReactionFlux1 = -kr__CaM__Ca*CaM_Ca1 + kf__CaM__Ca*CaM*Ca;
  const double ReactionFlux2 = kf__CaM_Ca1__Ca*Ca*CaM_Ca1 - kr__CaM_Ca1__Ca*CaM_Ca2;
  const double ReactionFlux3 = kf__CaM_Ca2__Ca*CaM_Ca2*Ca - CaM_Ca3*kr__CaM_Ca2__Ca;
  const double ReactionFlux4 = kf__CaM_Ca3__Ca*CaM_Ca3*Ca - kr__CaM_Ca3__Ca*CaM_Ca4;
  const double ReactionFlux5 = -PP2B_CaM*kr__CaM__PP2B + PP2B*kf__CaM__PP2B*CaM;
  const double ReactionFlux6 = PP2B*CaM_Ca1*kf__CaM_Ca1__PP2B - PP2B_CaM_Ca1*kr__CaM_Ca1__PP2B;
  const double ReactionFlux7 = PP2B*CaM_Ca2*kf__CaM_Ca2__PP2B - kr__CaM_Ca2__PP2B*PP2B_CaM_Ca2;
  const double ReactionFlux8 = -PP2B_CaM_Ca3*kr__CaM_Ca3__PP2B + PP2B*CaM_Ca3*kf__CaM_Ca3__PP2B;
  const double ReactionFlux9 = -PP2B_CaM_Ca4*kr__CaM_Ca4__PP2B + PP2B*CaM_Ca4*kf__CaM_Ca4__PP2B;
  const double ReactionFlux10 = PP2B_CaM*kf__PP2B_CaM__Ca*Ca - kr__PP2B_CaM__Ca*PP2B_CaM_Ca1;
  const double ReactionFlux11 = PP2B_CaM_Ca1*kf__PP2B_CaM_Ca1__Ca*Ca - kr__PP2B_CaM_Ca1__Ca*PP2B_CaM_Ca2;
  const double ReactionFlux12 = -PP2B_CaM_Ca3*kr__PP2B_CaM_Ca2__Ca + PP2B_CaM_Ca2*kf__PP2B_CaM_Ca2__Ca*Ca;
  const double ReactionFlux13 = PP2B_CaM_Ca3*kf__PP2B_CaM_Ca3__Ca*Ca - kr__PP2B_CaM_Ca3__Ca*PP2B_CaM_Ca4;
  const double ReactionFlux14 = kf__CaM__CaMKII*CaMKII*CaM - kr__CaM__CaMKII*CaMKII_CaM;
  const double ReactionFlux15 = -CaMKII_CaM_Ca1*kr__CaM_Ca1__CaMKII + CaMKII*CaM_Ca1*kf__CaM_Ca1__CaMKII;
  const double ReactionFlux16 = -kr__CaM_Ca2__CaMKII*CaMKII_CaM_Ca2 + CaM_Ca2*kf__CaM_Ca2__CaMKII*CaMKII;
  const double ReactionFlux17 = CaMKII*CaM_Ca3*kf__CaM_Ca3__CaMKII - CaMKII_CaM_Ca3*kr__CaM_Ca3__CaMKII;
  const double ReactionFlux18 = CaMKII*CaM_Ca4*kf__CaM_Ca4__CaMKII - kr__CaM_Ca4__CaMKII*CaMKII_CaM_Ca4;
  const double ReactionFlux19 = -CaMKII_CaM_Ca1*kr__CaMKII_CaM__Ca + kf__CaMKII_CaM__Ca*CaMKII_CaM*Ca;
  const double ReactionFlux20 = -CaMKII_CaM_Ca2*kr__CaMKII_CaM_Ca1__Ca + CaMKII_CaM_Ca1*kf__CaMKII_CaM_Ca1__Ca*Ca;
  const double ReactionFlux21 = CaMKII_CaM_Ca2*kf__CaMKII_CaM_Ca2__Ca*Ca - kr__CaMKII_CaM_Ca2__Ca*CaMKII_CaM_Ca3;
  const double ReactionFlux22 = -kr__CaMKII_CaM_Ca3__Ca*CaMKII_CaM_Ca4 + kf__CaMKII_CaM_Ca3__Ca*CaMKII_CaM_Ca3*Ca;
  const double ReactionFlux23 = -pCaMKII_CaM_Ca4*kr__CaM_Ca4__pCaMKIIa + pCaMKIIa*CaM_Ca4*kf__CaM_Ca4__pCaMKIIa;
  const double ReactionFlux24 = kf__CaM_Ca3__pCaMKIIa*CaM_Ca3*pCaMKIIa - kr__CaM_Ca3__pCaMKIIa*pCaMKII_CaM_Ca3;
  const double ReactionFlux25 = -kr__CaM_Ca2__pCaMKIIa*pCaMKII_CaM_Ca2 + CaM_Ca2*pCaMKIIa*kf__CaM_Ca2__pCaMKIIa;
  const double ReactionFlux26 = kf__CaM_Ca1__pCaMKIIa*pCaMKIIa*CaM_Ca1 - kr__CaM_Ca1__pCaMKIIa*pCaMKII_CaM_Ca1;
  const double ReactionFlux27 = -kr__CaM__pCaMKIIa*pCaMKII_CaM + kf__CaM__pCaMKIIa*pCaMKIIa*CaM;
  const double ReactionFlux28 = kf__pCaMKII_CaM__Ca*pCaMKII_CaM*Ca - kr__pCaMKII_CaM__Ca*pCaMKII_CaM_Ca1;
  const double ReactionFlux29 = -pCaMKII_CaM_Ca2*kr__pCaMKII_CaM_Ca1__Ca + pCaMKII_CaM_Ca1*kf__pCaMKII_CaM_Ca1__Ca*Ca;
  const double ReactionFlux30 = pCaMKII_CaM_Ca2*kf__pCaMKII_CaM_Ca2__Ca*Ca - kr__pCaMKII_CaM_Ca2__Ca*pCaMKII_CaM_Ca3;
  const double ReactionFlux31 = kf__pCaMKII_CaM_Ca3__Ca*pCaMKII_CaM_Ca3*Ca - kr__pCaMKII_CaM_Ca3__Ca*pCaMKII_CaM_Ca4;
  const double ReactionFlux32 = kautMax*pairedCaMKIIc*CaMKII_CaM_Ca4;
  const double ReactionFlux33 = -PP1__pCaMKIIa*kr__PP1__pCaMKIIa + PP1*kf__PP1__pCaMKIIa*pCaMKIIa;
  const double ReactionFlux34 = kcat__PP1__pCaMKIIa*PP1__pCaMKIIa;
  f[0] = -ReactionFlux2 - ReactionFlux6 - ReactionFlux15 - ReactionFlux26 + ReactionFlux1;
  f[1] = ReactionFlux2 - ReactionFlux3 - ReactionFlux25 - ReactionFlux7 - ReactionFlux16;
  f[2] = -ReactionFlux24 + ReactionFlux3 - ReactionFlux4 - ReactionFlux8 - ReactionFlux17;
  f[3] = -ReactionFlux9 - ReactionFlux18 + ReactionFlux4 - ReactionFlux23;
  f[4] = ReactionFlux5 - ReactionFlux10;
  f[5] = ReactionFlux6 + ReactionFlux10 - ReactionFlux11;
  f[6] = -ReactionFlux12 + ReactionFlux7 + ReactionFlux11;
  f[7] = ReactionFlux12 - ReactionFlux13 + ReactionFlux8;
  f[8] = ReactionFlux9 + ReactionFlux13;
  f[9] = ReactionFlux14 - ReactionFlux19;
  f[10] = ReactionFlux15 + ReactionFlux19 - ReactionFlux20;
  f[11] = -ReactionFlux21 + ReactionFlux16 + ReactionFlux20;
  f[12] = ReactionFlux21 - ReactionFlux22 + ReactionFlux17;
  f[13] = ReactionFlux18 + ReactionFlux22 - ReactionFlux32;
  f[14] = ReactionFlux31 + ReactionFlux32 + ReactionFlux23;
  f[15] = -ReactionFlux27 - ReactionFlux24 - ReactionFlux25 - ReactionFlux26 - ReactionFlux23 - ReactionFlux33;
  f[16] = ReactionFlux30 + ReactionFlux24 - ReactionFlux31;
  f[17] = -ReactionFlux30 + ReactionFlux25 + ReactionFlux29;
  f[18] = ReactionFlux28 - ReactionFlux29 + ReactionFlux26;
  f[19] = ReactionFlux27 - ReactionFlux28;
  f[20] = -ReactionFlux34 + ReactionFlux33;
}

// ---- a generated sparse model: 500 states, 20 parameters ----

std::string generated_model(int n) {
  std::string s;
  for (int j = 0; j < 20; ++j) s += "param k" + std::to_string(j) + " = " + std::to_string(0.1 + 0.05 * j) + "\n";
  s += "const Km = 0.5\n";
  for (int i = 0; i < n; ++i) s += "state x" + std::to_string(i) + " = " + std::to_string(0.2 + 0.001 * i) + "\n";
  auto X = [n](int i) { return "x" + std::to_string(((i % n) + n) % n); };
  for (int i = 0; i < n; ++i) {
    s += "d" + X(i) + "/dt = k" + std::to_string(i % 20) + "*" + X(i - 1) + " - k" +
         std::to_string((i + 7) % 20) + "*" + X(i) + "/(Km + " + X(i) + ") + 0.01*" + X(i + 1) +
         "*" + X(i + 3) + " - 0.1*exp(-" + X(i) + ")\n";
  }
  return s;
}

struct Case {
  std::shared_ptr<odesens::ExprModel> model;
  std::vector<double> x, p;
};

const Case& model_case(const std::string& name) {
  static std::map<std::string, Case> cases;
  auto it = cases.find(name);
  if (it != cases.end()) return it->second;
  Case c;
  c.model = name == "gen500" ? odesens::load_ode_text(generated_model(500), "gen500.ode")
                             : odesens::load_ode_file(shared_dir() + "/models/ode/" + name + ".ode");
  c.p = c.model->nominal_params();
  c.x.resize(c.model->nx());
  c.model->initial_state(c.p.data(), c.x.data());
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  for (auto& v : c.x) v = std::fabs(v) + u(gen);  // every term active
  return cases.emplace(name, std::move(c)).first->second;
}

void rhs_expr(benchmark::State& state, const std::string& name) {
  const Case& c = model_case(name);
  std::vector<double> f(c.model->nx());
  const auto ws = c.model->make_workspace();
  for (auto _ : state) {
    c.model->rhs(0.5, c.x.data(), c.p.data(), f.data(), ws.get());
    benchmark::DoNotOptimize(f.data());
    benchmark::ClobberMemory();
  }
  state.counters["nx"] = static_cast<double>(c.model->nx());
}

void rhs_hand(benchmark::State& state, const std::string& name,
              void (*fn)(double, const double*, const double*, double*)) {
  const Case& c = model_case(name);
  std::vector<double> f(c.model->nx()), check(c.model->nx());
  c.model->rhs(0.5, c.x.data(), c.p.data(), check.data());
  fn(0.5, c.x.data(), c.p.data(), f.data());
  for (std::size_t i = 0; i < f.size(); ++i)
    if (std::fabs(f[i] - check[i]) > 1e-9 * (1 + std::fabs(check[i])))
      state.SkipWithError("hand-written f disagrees with the .ode model");
  for (auto _ : state) {
    fn(0.5, c.x.data(), c.p.data(), f.data());
    benchmark::DoNotOptimize(f.data());
    benchmark::ClobberMemory();
  }
}

void jac_x_sparse(benchmark::State& state, const std::string& name) {
  const Case& c = model_case(name);
  std::vector<double> v(c.model->jac_x_pattern()->nnz());
  const auto ws = c.model->make_workspace();
  for (auto _ : state) {
    c.model->jac_x_values(0.5, c.x.data(), c.p.data(), v.data(), ws.get());
    benchmark::DoNotOptimize(v.data());
    benchmark::ClobberMemory();
  }
  state.counters["nnz"] = static_cast<double>(v.size());
}

void jac_p_dense(benchmark::State& state, const std::string& name) {
  const Case& c = model_case(name);
  std::vector<double> Jp(c.model->nx() * c.model->np());
  const auto ws = c.model->make_workspace();
  for (auto _ : state) {
    c.model->jac_p(0.5, c.x.data(), c.p.data(), Jp.data(), ws.get());
    benchmark::DoNotOptimize(Jp.data());
    benchmark::ClobberMemory();
  }
}

// v^T J_x and v^T J_p for `vectors` weight vectors at lane width `lanes`.
void vjp(benchmark::State& state, const std::string& name, int lanes, int vectors) {
  const Case& c = model_case(name);
  if (lanes > odesens::widest_expr_lane_width()) {
    state.SkipWithError("lane width not available on this CPU");
    return;
  }
  const auto ws = c.model->make_workspace(lanes);
  const std::size_t n = c.model->nx(), np = c.model->np(), nw = static_cast<std::size_t>(vectors);
  std::vector<double> W(n * nw, 0.5), ox(n * nw), op(np * nw);
  for (auto _ : state) {
    c.model->vjp(0.5, c.x.data(), c.p.data(), nw, W.data(), ox.data(), op.data(), ws.get());
    benchmark::DoNotOptimize(ox.data());
    benchmark::DoNotOptimize(op.data());
    benchmark::ClobberMemory();
  }
  state.counters["lanes"] = lanes;
  state.counters["vectors"] = vectors;
}

// ---- one adjoint stage of glv:200: M = 201 vectors, np = 40200 ----

// glv:N as an ExprModel, recorded from the same formula as the builtin
// (f_i = x_i (r_i + sum_j A_ij x_j), parameters r then A row-major).
std::shared_ptr<odesens::ExprModel> recorded_glv(std::size_t n) {
  const auto builtin = odesens::load_model("builtin:glv:" + std::to_string(n));
  odesens::RecordOptions options;
  options.name = "recorded glv:" + std::to_string(n);
  options.nominal_params = builtin->nominal_params();
  options.x0.assign(n, 0.1);
  return odesens::record(
      n, n + n * n,
      [n](auto, const auto* x, const auto* p, auto* dx) {
        for (std::size_t i = 0; i < n; ++i) {
          auto g = p[i];
          for (std::size_t j = 0; j < n; ++j) g += p[n + i * n + j] * x[j];
          dx[i] = x[i] * g;
        }
      },
      options);
}

struct StageCase {
  std::shared_ptr<const odesens::Model> model;
  std::vector<double> x, p;
};

const StageCase& stage_case(const std::string& source) {
  static std::map<std::string, StageCase> cases;
  auto it = cases.find(source);
  if (it != cases.end()) return it->second;
  StageCase c;
  if (source == "recorded")
    c.model = recorded_glv(200);
  else
    c.model = odesens::load_model("builtin:glv:200");
  c.p = c.model->nominal_params();
  c.x.resize(c.model->nx());
  std::mt19937 gen(4);
  std::uniform_real_distribution<double> u(0.05, 0.3);
  for (auto& v : c.x) v = u(gen);
  return cases.emplace(source, std::move(c)).first->second;
}

// mu (np x M) += J_p^T W and nu (nx x M) = J_x^T W, as the reverse sweep
// of erk_adjoint needs them per stage: separately (vjp_x, vjp_p into an
// np x M temporary, added) or fused (vjp_accumulate).
void adjoint_stage(benchmark::State& state, const std::string& source, bool fused) {
  const StageCase& c = stage_case(source);
  const auto ws = c.model->make_workspace();
  const std::size_t n = c.model->nx(), np = c.model->np(), nw = n + 1;
  std::vector<double> W(n * nw), nu(n * nw), mu(np * nw, 0.0), JptW(fused ? 0 : np * nw);
  std::mt19937 gen(5);
  std::normal_distribution<double> g;
  for (auto& v : W) v = 1e-3 * g(gen);
  for (auto _ : state) {
    if (fused) {
      c.model->vjp_accumulate(0.5, c.x.data(), c.p.data(), nw, W.data(), nu.data(), mu.data(),
                              ws.get());
    } else {
      c.model->vjp_x(0.5, c.x.data(), c.p.data(), nw, W.data(), nu.data(), ws.get());
      c.model->vjp_p(0.5, c.x.data(), c.p.data(), nw, W.data(), JptW.data(), ws.get());
      for (std::size_t k = 0; k < np * nw; ++k) mu[k] += JptW[k];
    }
    benchmark::DoNotOptimize(nu.data());
    benchmark::DoNotOptimize(mu.data());
    benchmark::ClobberMemory();
  }
  state.counters["vectors"] = static_cast<double>(nw);
  state.counters["lanes"] = ws->lane_width();
}

void register_all() {
  using benchmark::RegisterBenchmark;
  RegisterBenchmark("f/chua/hand", rhs_hand, "chua", &chua_hand);
  RegisterBenchmark("f/chua/expr", rhs_expr, "chua");
  RegisterBenchmark("f/camkii/hand", rhs_hand, "camkii", &camkii_hand);
  RegisterBenchmark("f/camkii/expr", rhs_expr, "camkii");
  RegisterBenchmark("f/gen500/expr", rhs_expr, "gen500");
  for (const std::string m : {"chua", "camkii", "gen500"}) {
    RegisterBenchmark(("jac_x/" + m + "/expr").c_str(), jac_x_sparse, m);
    RegisterBenchmark(("jac_p/" + m + "/expr").c_str(), jac_p_dense, m);
    for (int lanes : {1, 4, 8})
      RegisterBenchmark(("vjp/" + m + "/L" + std::to_string(lanes)).c_str(), vjp, m, lanes, lanes);
    RegisterBenchmark(("vjp/" + m + "/L1x4").c_str(), vjp, m, 1, 4);
  }
  for (const std::string source : {"builtin", "recorded"}) {
    const std::string name = "vjp_accumulate/glv200/" + source;
    RegisterBenchmark((name + "/separate").c_str(), adjoint_stage, source, false);
    RegisterBenchmark((name + "/fused").c_str(), adjoint_stage, source, true);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
