// The operators at which an expression switches: the comparisons, whose
// truth turns where their operands cross, and floor and ceil, whose value
// steps wherever their argument crosses an integer (event_functions.cpp
// makes roots of them; moving_switch.cpp names them).
#pragma once

#include "expr/expr_graph.hpp"
#include "odesens/model_capabilities.hpp"

namespace odesens::expr {

inline bool comparison_of(Op op, EventSystem::Comparison* out) {
  using C = EventSystem::Comparison;
  switch (op) {
    case Op::lt: *out = C::lt; return true;
    case Op::le: *out = C::le; return true;
    case Op::gt: *out = C::gt; return true;
    case Op::ge: *out = C::ge; return true;
    case Op::eq: *out = C::eq; return true;
    case Op::ne: *out = C::ne; return true;
    default: return false;
  }
}

inline bool step_of(Op op, EventSystem::Root::Kind* out) {
  switch (op) {
    case Op::floor: *out = EventSystem::Root::Kind::floor; return true;
    case Op::ceil: *out = EventSystem::Root::Kind::ceil; return true;
    default: return false;
  }
}

inline bool is_switch(Op op) {
  EventSystem::Comparison c;
  EventSystem::Root::Kind k;
  return comparison_of(op, &c) || step_of(op, &k);
}

}  // namespace odesens::expr
