// Counting allocations in tests: a program that links allocation_counter.cpp
// has global operator new/delete replaced (every form, so whatever the
// library or the standard library calls is counted and pairs with free()),
// counting the allocations of this thread while `counting` is true.
#pragma once

namespace odesens::testing {

extern thread_local bool counting;
extern thread_local long allocations;

}  // namespace odesens::testing

using odesens::testing::allocations;
using odesens::testing::counting;
