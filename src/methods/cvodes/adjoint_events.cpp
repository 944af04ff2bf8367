#include "methods/cvodes/adjoint_events.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/number_text.hpp"
#include "integrate/events/event_runner.hpp"
#include "methods/common/cvodes_options.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/cvodes/adjoint_callbacks.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {
namespace {


// One stretch of the forward solution between two restarts.
struct Segment {
  std::unique_ptr<Session> session;
  double t_begin = 0.0, t_end = 0.0;
  std::vector<std::size_t> outputs;  // output indices written in this segment, increasing
  bool ends_with_instant = false;
  integrate::EventRunner::Instant instant;  // at t_end, when ends_with_instant
  int checkpoints = 0;
};

// One adjoint (the objective's or a row of S(T)) carried across segments.
struct Adjoint {
  std::vector<double> lambda;    // at the current time
  std::vector<double> gradient;  // accumulated dG/dp (np)
  std::vector<integrate::EventRunner::DelayedAdjoint> owed;  // to earlier firings
};

}  // namespace

Result solve_adjoint_with_events(const Problem& problem, const AdjointEventSettings& settings) {
  const Model& model = *problem.model;
  const std::size_t n = model.nx(), np = model.np();
  const auto& times = problem.output_times;
  const std::size_t nt = times.size();
  const std::vector<double> weights = objective_weights(problem);
  auto weight = [&](std::size_t k) { return weights.data() + k * n; };
  const bool rows = settings.final_sensitivity;
  methods::ResultBuilder out(problem, n, np,
                             rows ? methods::SensitivityLayout::final_time_only
                                  : methods::SensitivityLayout::none);

  // Forward, segment by segment.
  std::vector<Segment> segments;
  auto open_segment = [&](double t, const std::vector<double>& x) {
    InitialValueProblem seg = initial_value_problem(problem);
    seg.t0 = t;
    if (!segments.empty()) seg.initial_state = x;  // the first starts from x0(p)
    Segment s;
    s.session = std::make_unique<Session>(seg, settings.session);
    s.session->create_integrator();
    s.t_begin = s.t_end = t;
    segments.push_back(std::move(s));
    return segments.size() - 1;
  };
  std::size_t current = open_segment(problem.t0, {});
  Session& first = *segments[0].session;
  std::vector<double> params = first.params();
  integrate::EventRunner runner(model, params.data(), 0, first.workspace());
  runner.record_instants(true);
  std::vector<double> x(N_VGetArrayPointer(first.state()),
                        N_VGetArrayPointer(first.state()) + n);
  const std::vector<double> s0 = first.initial_sensitivity();
  // Events at t0 end a first segment of length 0 (kept: it holds the
  // workspace the runner evaluates with).
  if (runner.start(problem.t0, x.data(), nullptr).restart()) {
    segments[0].ends_with_instant = true;
    segments[0].instant = runner.last_instant();
    current = open_segment(problem.t0, x);
  }
  TrajectorySample sample;
  sample.times.push_back(problem.t0);
  sample.states.insert(sample.states.end(), x.begin(), x.end());
  sample.weights.insert(sample.weights.end(), n, 0.0);
  std::size_t k = 0;
  auto write_outputs_at = [&](double t) {
    for (; k < nt && times[k] == t; ++k) {
      out.set_x(k, x.data());
      segments[current].outputs.push_back(k);
      sample.times.push_back(t);
      sample.states.insert(sample.states.end(), x.begin(), x.end());
      sample.weights.insert(sample.weights.end(), weight(k), weight(k) + n);
    }
  };
  write_outputs_at(problem.t0);
  std::vector<int> found(std::max<std::size_t>(runner.n_roots(), 1));
  while (true) {
    Segment& seg = segments[current];
    Session& session = *seg.session;
    void* mem = session.mem();
    if (k == nt) break;  // events at t0 and no output after them
    session.set_event_runner(&runner);
    session.check(CVodeAdjInit(mem, static_cast<long>(settings.checkpoint_steps),
                               settings.interpolation),
                  "CVodeAdjInit");
    if (runner.n_roots() > 0) {
      session.check(CVodeRootInit(mem, static_cast<int>(runner.n_roots()), &Session::event_roots),
                    "CVodeRootInit");
      session.check(CVodeSetNoInactiveRootWarn(mem), "CVodeSetNoInactiveRootWarn");
    }
    double* y = N_VGetArrayPointer(session.state());
    double t = seg.t_begin;
    bool restarted = false;
    while (k < nt && !restarted) {
      sunrealtype t_ret = t;
      int ncheck = 0;
      // A delayed execution falls due: CVODES stops there (set while no
      // internal step has passed it, since the segment began before it).
      const double next = runner.next_execution();
      if (std::isfinite(next)) session.check(CVodeSetStopTime(mem, next), "CVodeSetStopTime");
      const int flag = CVodeF(mem, times[k], session.state(), &t_ret, CV_NORMAL, &ncheck);
      session.check(flag, "CVodeF");
      seg.checkpoints = ncheck;
      t = t_ret;
      const int* roots = nullptr;
      if (flag == CV_ROOT_RETURN) {
        session.check(CVodeGetRootInfo(mem, found.data()), "CVodeGetRootInfo");
        roots = found.data();
      }
      restarted = runner.at(t, y, nullptr, roots).restart();
      std::copy(y, y + n, x.begin());
      if (restarted) {
        seg.ends_with_instant = true;
        seg.instant = runner.last_instant();
      }
      seg.t_end = t;
      // Outputs at t are written after what happened there; with a restart
      // they belong to the next segment (its adjoint starts after the jump).
      if (!restarted && flag != CV_ROOT_RETURN) write_outputs_at(t);
    }
    if (!restarted) break;
    current = open_segment(t, x);
    write_outputs_at(t);
    if (k == nt) break;
  }

  // Backward, segment by segment, from the last output time.
  const std::size_t n_adjoints = 1 + (rows ? n : 0);
  const std::vector<BackwardTolerances> tolerances =
      derive_backward_tolerances(settings.tolerances, *problem.rtol, model, params.data(),
                                 first.workspace(), sample, rows);
  std::vector<Adjoint> adjoints(n_adjoints);
  for (std::size_t b = 0; b < n_adjoints; ++b) {
    adjoints[b].lambda.assign(n, 0.0);
    adjoints[b].gradient.assign(np, 0.0);
    if (b > 0) adjoints[b].lambda[b - 1] = 1.0;  // row b - 1 of S(T)
  }
  Counters backward_counters, forward_counters;
  std::vector<double> lambda_minus(n);
  for (std::size_t s = segments.size(); s-- > 0;) {
    Segment& seg = segments[s];
    Session& session = *seg.session;
    void* mem = session.mem();
    // CVodeB recomputes the forward solution between checkpoints, one step at
    // a time; the roots inside the segment changed nothing, and a root
    // return there would end a recomputed step early: root finding is off.
    if (runner.n_roots() > 0) session.check(CVodeRootInit(mem, 0, nullptr), "CVodeRootInit");
    // The outputs of this segment at its end come first (w_k added as the
    // adjoint starts), then those inside, by CVodeB with reinitialisation.
    std::vector<std::size_t> outputs(seg.outputs.rbegin(), seg.outputs.rend());
    std::size_t o = 0;
    auto add_weights_at = [&](double t) {
      for (; o < outputs.size() && times[outputs[o]] == t; ++o)
        for (std::size_t i = 0; i < n; ++i) adjoints[0].lambda[i] += weight(outputs[o])[i];
    };
    add_weights_at(seg.t_end);
    if (seg.t_end > seg.t_begin) {
      std::vector<int> which(n_adjoints);
      std::vector<VectorPtr> lambdas(n_adjoints), qs(n_adjoints);
      VectorPtr atol_q = make_vector(np > 0 ? np : 1, session.context());
      for (std::size_t b = 0; b < n_adjoints; ++b) {
        lambdas[b] = make_vector(n, session.context());
        qs[b] = make_vector(np > 0 ? np : 1, session.context());
        std::copy(adjoints[b].lambda.begin(), adjoints[b].lambda.end(),
                  N_VGetArrayPointer(lambdas[b].get()));
        N_VConst(0.0, qs[b].get());
        session.check(CVodeCreateB(mem, settings.session.lmm, &which[b]), "CVodeCreateB");
        session.capture_messages(CVodeGetAdjCVodeBmem(mem, which[b]));
        session.check(CVodeInitB(mem, which[b], &adjoint_rhs, seg.t_end, lambdas[b].get()),
                      "CVodeInitB");
        session.check(CVodeSetUserDataB(mem, which[b], &session), "CVodeSetUserDataB");
        session.check(CVodeSetMaxNumStepsB(mem, which[b], static_cast<long>(problem.max_steps)),
                      "CVodeSetMaxNumStepsB");
        session.attach_backward_linear_solver(which[b]);
        const BackwardTolerances& tol = tolerances[b == 0 ? 0 : b];
        session.check(CVodeSStolerancesB(mem, which[b], tol.rtol_adjoint, tol.atol_adjoint),
                      "CVodeSStolerancesB");
        if (np > 0) {
          session.check(CVodeQuadInitB(mem, which[b], &adjoint_quadrature, qs[b].get()),
                        "CVodeQuadInitB");
          session.check(CVodeSetQuadErrConB(mem, which[b], SUNTRUE), "CVodeSetQuadErrConB");
          std::copy(tol.atol_quadrature.begin(), tol.atol_quadrature.end(),
                    N_VGetArrayPointer(atol_q.get()));
          session.check(CVodeQuadSVtolerancesB(mem, which[b], tol.rtol_quadrature, atol_q.get()),
                        "CVodeQuadSVtolerancesB");
        }
      }
      sunrealtype t_ret = seg.t_end;
      auto read_back = [&](bool reinit, double t) {
        for (std::size_t b = 0; b < n_adjoints; ++b) {
          session.check(CVodeGetB(mem, which[b], &t_ret, lambdas[b].get()), "CVodeGetB");
          const double* l = N_VGetArrayPointer(lambdas[b].get());
          std::copy(l, l + n, adjoints[b].lambda.begin());
          if (np > 0) {
            session.check(CVodeGetQuadB(mem, which[b], &t_ret, qs[b].get()), "CVodeGetQuadB");
            const double* q = N_VGetArrayPointer(qs[b].get());
            for (std::size_t j = 0; j < np; ++j) adjoints[b].gradient[j] += q[j];
          }
        }
        if (!reinit) return;
        add_weights_at(t);
        for (std::size_t b = 0; b < n_adjoints; ++b) {
          backward_counters += session.backward_counters(which[b]);  // CVodeReInitB zeroes them
          std::copy(adjoints[b].lambda.begin(), adjoints[b].lambda.end(),
                    N_VGetArrayPointer(lambdas[b].get()));
          session.check(CVodeReInitB(mem, which[b], t, lambdas[b].get()), "CVodeReInitB");
          if (np > 0) {
            N_VConst(0.0, qs[b].get());
            session.check(CVodeQuadReInitB(mem, which[b], qs[b].get()), "CVodeQuadReInitB");
          }
        }
      };
      while (o < outputs.size() && times[outputs[o]] > seg.t_begin) {
        const double t = times[outputs[o]];
        session.check(CVodeB(mem, t, CV_NORMAL), "CVodeB");
        read_back(true, t);
      }
      session.check(CVodeB(mem, seg.t_begin, CV_NORMAL), "CVodeB");
      read_back(false, seg.t_begin);
      for (std::size_t b = 0; b < n_adjoints; ++b)
        backward_counters += session.backward_counters(which[b]);
    }
    add_weights_at(seg.t_begin);
    forward_counters += session.counters();
    // Across the instant that started this segment.
    if (s > 0 && segments[s - 1].ends_with_instant)
      for (auto& a : adjoints) {
        runner.adjoint_jump(segments[s - 1].instant, a.lambda.data(), lambda_minus.data(),
                            a.gradient.data(), 0.0, &a.owed);
        a.lambda = lambda_minus;
      }
  }
  // dG/dp = lambda(t0-)^T dx0/dp + the integrals and jumps.
  for (std::size_t b = 0; b < n_adjoints; ++b)
    for (std::size_t j = 0; j < np; ++j)
      for (std::size_t i = 0; i < n; ++i)
        adjoints[b].gradient[j] += adjoints[b].lambda[i] * s0[i + j * n];
  out.gradient() = adjoints[0].gradient;
  if (rows)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < np; ++j) out.s(0)[i + j * n] = adjoints[1 + i].gradient[j];

  Stats& stats = out.stats();
  add_counters(forward_counters, stats, false);
  add_backward_counters(backward_counters, stats);
  stats.extra["backward_problems"] = static_cast<double>(n_adjoints);
  stats.extra["segments"] = static_cast<double>(segments.size());
  stats.extra["events_executed"] = static_cast<double>(runner.events_executed());
  for (const auto& w : runner.warnings()) out.warn(w);
  return out.take();
}

}  // namespace odesens::cvodes
