// The orientation predicate against exact integer arithmetic on points of a binary grid,
// nearly coplanar, where the determinant computed in doubles often has the wrong sign
// (Shewchuk 1997).
#include "core/math/Orientation.h"

#include <gtest/gtest.h>

#include <random>

namespace tinkerbox {
namespace {

__extension__ typedef __int128 Int128;

TEST(Orientation, SignFollowsTheRightHandRule) {
    const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
    EXPECT_EQ(orientation(a, b, c, Vec3(0.3, 0.2, 1e-300)), 1);  // above, by far less than rounding
    EXPECT_EQ(orientation(a, b, c, Vec3(0.3, 0.2, -2.0)), -1);
    EXPECT_EQ(orientation(a, b, c, Vec3(5.0, -7.0, 0.0)), 0);
    EXPECT_EQ(orientation(a, c, b, Vec3(0.3, 0.2, 1.0)), -1);
}

// Points n / 2^20 with integer n below 2^41, so that the differences are exact in doubles
// and the determinant, times 2^60, is an integer below 2^127. With c - a = 2 (b - a) + w,
// w small, the plane's normal u x w is short, and d = a + i (b - a) + j (c - a) moved by a
// grid step or none is on the plane or barely off it: far below the rounding of the
// products, which then often gives the determinant computed in doubles the wrong sign.
TEST(Orientation, ExactForNearlyCoplanarPoints) {
    std::mt19937_64 random(23);
    std::uniform_int_distribution<long long> large(-(1LL << 37), 1LL << 37), small(-1024, 1024), step(-1, 1),
        multiple(-2, 2);
    const double unit = std::ldexp(1.0, -20);
    int wrongInDoubles = 0, zero = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        std::array<std::array<long long, 3>, 4> n;
        const long long i = multiple(random), j = multiple(random);
        for (int k = 0; k < 3; ++k) {
            const long long a = large(random), u = large(random), v = 2 * u + small(random);
            n[0][k] = a;
            n[1][k] = a + u;
            n[2][k] = a + v;
            n[3][k] = a + i * u + j * v + step(random);
        }
        std::array<std::array<Int128, 3>, 3> m;  // rows b - a, c - a, d - a
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) m[i][k] = Int128(n[i + 1][k]) - Int128(n[0][k]);
        const Int128 det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        const int exact = det > 0 ? 1 : (det < 0 ? -1 : 0);

        std::array<Vec3, 4> p;
        for (int i = 0; i < 4; ++i) p[i] = unit * Vec3(double(n[i][0]), double(n[i][1]), double(n[i][2]));
        ASSERT_EQ(orientation(p[0], p[1], p[2], p[3]), exact) << "trial " << trial;
        const double naive = (p[1] - p[0]).cross(p[2] - p[0]).dot(p[3] - p[0]);
        if ((naive > 0 ? 1 : (naive < 0 ? -1 : 0)) != exact) ++wrongInDoubles;
        if (exact == 0) ++zero;
    }
    EXPECT_GT(wrongInDoubles, 100);  // the cases are hard ones
    EXPECT_GT(zero, 100);            // and exactly coplanar ones are among them
}

}  // namespace
}  // namespace tinkerbox
