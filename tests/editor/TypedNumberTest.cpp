#include "editor/TypedNumber.h"

#include <gtest/gtest.h>

#include <limits>

namespace tinkerbox {
namespace {

// What a panel keeps of a typed number: inside the range as typed, outside it at the nearer
// end, infinities at their end, and not a number at the low end.
TEST(TypedNumber, ATypedNumberIsKeptInItsRange) {
    EXPECT_EQ(clampTyped(0.5, 0.1, 10.0), 0.5);
    EXPECT_EQ(clampTyped(-3.0, 0.1, 10.0), 0.1);
    EXPECT_EQ(clampTyped(std::numeric_limits<double>::infinity(), 0.1, 10.0), 10.0);
    EXPECT_EQ(clampTyped(-std::numeric_limits<double>::infinity(), 0.1, 10.0), 0.1);
    EXPECT_EQ(clampTyped(std::numeric_limits<double>::quiet_NaN(), 0.1, 10.0), 0.1);
}

}  // namespace
}  // namespace tinkerbox
