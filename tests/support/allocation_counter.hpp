// Counting allocations in tests: a program that links allocation_counter.cpp
// has global operator new/delete replaced (every form, so whatever the
// library or the standard library calls is counted and pairs with free()),
// counting the allocations of this thread while `counting` is true. While
// counting, failing_at >= 0 makes allocation number failing_at (from 0)
// fail (std::bad_alloc, or nullptr from the nothrow forms): a request that
// memory cannot meet at a chosen point, while the smaller ones after it
// (a message, the unwinding) still can.
#pragma once

namespace odesens::testing {

extern thread_local bool counting;
extern thread_local long allocations;
extern thread_local long failing_at;

}  // namespace odesens::testing

using odesens::testing::allocations;
using odesens::testing::counting;
using odesens::testing::failing_at;
