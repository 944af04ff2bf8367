// The records of tableaux.def: the file is read three times, for the
// coefficient arrays, for checks of their lengths, and for the records.
#include <cstring>

#include "integrate/erk/tableau.hpp"

namespace odesens::integrate::erk {
namespace {

// ---- pass 1: coefficient arrays ------------------------------------------
#define ERK_TABLEAU(...)
#define ERK_C(id, ...) constexpr double id##_c[] = {__VA_ARGS__};
#define ERK_A(id, ...) constexpr double id##_a[] = {__VA_ARGS__};
#define ERK_B(id, ...) constexpr double id##_b[] = {__VA_ARGS__};
#define ERK_E(id, ...) constexpr double id##_e[] = {__VA_ARGS__};
#define ERK_E3(id, ...) constexpr double id##_e3[] = {__VA_ARGS__};
#define ERK_D(id, ...) constexpr double id##_d[] = {__VA_ARGS__};
#include "integrate/erk/tableaux.def"
#undef ERK_TABLEAU
#undef ERK_C
#undef ERK_A
#undef ERK_B
#undef ERK_E
#undef ERK_E3
#undef ERK_D

template <std::size_t N>
constexpr int length(const double (&)[N]) {
  return static_cast<int>(N);
}

// Optional arrays are named only when the record says they exist.
#define ERK_PICK_0(array) nullptr
#define ERK_PICK_1(array) array
#define ERK_PICK(flag, array) ERK_PICK_##flag(array)
#define ERK_LENGTH_0(array, expected) true
#define ERK_LENGTH_1(array, expected) (length(array) == (expected))
#define ERK_LENGTH(flag, array, expected) ERK_LENGTH_##flag(array, expected)

// Dense rows exist exactly when dense_rows > 0; ERK_HAS_D maps the count to 0/1.
#define ERK_HAS_D_0 0
#define ERK_HAS_D_1 1
#define ERK_HAS_D_4 1
#define ERK_HAS_D(rows) ERK_HAS_D_##rows
#define ERK_PICK_D(rows, array) ERK_PICK_D2(ERK_HAS_D(rows), array)
#define ERK_PICK_D2(flag, array) ERK_PICK(flag, array)
#define ERK_LENGTH_D(rows, array, expected) ERK_LENGTH_D2(ERK_HAS_D(rows), array, expected)
#define ERK_LENGTH_D2(flag, array, expected) ERK_LENGTH(flag, array, expected)

// ---- pass 2: every array has the length its record promises ---------------
#define ERK_TABLEAU(id, s, ds, p, p_hat, q, fsal, fixed, est, new_f, dense_p, rows, has_e,   \
                    has_e3)                                                                  \
  static_assert(length(id##_c) == (ds), #id ": c needs dense_stages values");               \
  static_assert(length(id##_a) == (ds) * ((ds)-1) / 2, #id ": A is not strictly lower");    \
  static_assert(length(id##_b) == (s), #id ": b needs stages values");                      \
  static_assert(ERK_LENGTH(has_e, id##_e, s), #id ": e needs stages values");               \
  static_assert(ERK_LENGTH(has_e3, id##_e3, s), #id ": e3 needs stages values");            \
  static_assert(ERK_LENGTH_D(rows, id##_d, (rows) * (ds)),                                  \
                #id ": dense rows need dense_stages values each");
#define ERK_C(...)
#define ERK_A(...)
#define ERK_B(...)
#define ERK_E(...)
#define ERK_E3(...)
#define ERK_D(...)
#include "integrate/erk/tableaux.def"
#undef ERK_TABLEAU

// ---- pass 3: the records -----------------------------------------------------
#define ERK_TABLEAU(id, s, ds, p, p_hat, q, fsal, fixed, est, new_f, dense_p, rows, has_e,   \
                    has_e3)                                                                  \
  Tableau{TableauId::id, #id, s, ds, p, p_hat, q, fsal != 0, fixed != 0,                     \
          ErrorEstimator::est, new_f, dense_p, rows, id##_c, id##_a, id##_b,                 \
          ERK_PICK(has_e, id##_e), ERK_PICK(has_e3, id##_e3), ERK_PICK_D(rows, id##_d)},
const Tableau kTableaux[] = {
#include "integrate/erk/tableaux.def"
};
#undef ERK_TABLEAU
#undef ERK_C
#undef ERK_A
#undef ERK_B
#undef ERK_E
#undef ERK_E3
#undef ERK_D

constexpr int kCount = static_cast<int>(sizeof(kTableaux) / sizeof(kTableaux[0]));

}  // namespace

const Tableau& tableau(TableauId id) { return kTableaux[static_cast<int>(id)]; }

const Tableau* find_tableau(std::string_view name) {
  for (const Tableau& t : kTableaux)
    if (name == t.name) return &t;
  return nullptr;
}

const Tableau* all_tableaux(int* count) {
  *count = kCount;
  return kTableaux;
}

}  // namespace odesens::integrate::erk
