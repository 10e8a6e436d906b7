#include "core/math/Orientation.h"

#include <array>
#include <cmath>
#include <vector>

namespace tinkerbox {
namespace {

// A number as an exact sum of doubles that do not overlap, in increasing magnitude
// (Shewchuk 1997): its sign is that of its largest component.
using Expansion = std::vector<double>;

// x + y = a + b exactly, x = fl(a + b) (Knuth's Two-Sum, as in Shewchuk 1997).
void twoSum(double a, double b, double& x, double& y) {
    x = a + b;
    const double bVirtual = x - a;
    const double aVirtual = x - bVirtual;
    y = (a - aVirtual) + (b - bVirtual);
}

// x + y = a b exactly, x = fl(a b): the fused multiply-add rounds only once.
void twoProduct(double a, double b, double& x, double& y) {
    x = a * b;
    y = std::fma(a, b, -x);
}

// e + b (Shewchuk 1997, Grow-Expansion), with zero components dropped.
void grow(Expansion& e, double b) {
    Expansion sum;
    sum.reserve(e.size() + 1);
    double carry = b;
    for (double component : e) {
        double x, y;
        twoSum(carry, component, x, y);
        if (y != 0.0) sum.push_back(y);
        carry = x;
    }
    if (carry != 0.0) sum.push_back(carry);
    e.swap(sum);
}

Expansion difference(double a, double b) {
    double x, y;
    twoSum(a, -b, x, y);
    Expansion e;
    if (y != 0.0) e.push_back(y);
    if (x != 0.0) e.push_back(x);
    return e;
}

Expansion product(const Expansion& e, const Expansion& f) {
    Expansion p;
    for (double u : e) {
        for (double v : f) {
            double x, y;
            twoProduct(u, v, x, y);
            grow(p, y);
            grow(p, x);
        }
    }
    return p;
}

void add(Expansion& e, const Expansion& f, double sign) {
    for (double component : f) grow(e, sign * component);
}

int exactOrientation(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    std::array<std::array<Expansion, 3>, 3> m;  // rows b - a, c - a, d - a
    const std::array<const Vec3*, 3> rows{&b, &c, &d};
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) m[r][k] = difference((*rows[r])[k], a[k]);
    Expansion det;
    for (int k = 0; k < 3; ++k) {  // cofactor expansion along the first row
        const int i = (k + 1) % 3, j = (k + 2) % 3;
        Expansion minor = product(m[1][i], m[2][j]);
        add(minor, product(m[1][j], m[2][i]), -1.0);
        add(det, product(m[0][k], minor), 1.0);
    }
    if (det.empty()) return 0;
    return det.back() > 0.0 ? 1 : -1;
}

}  // namespace

int orientation(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const Vec3 u = b - a, v = c - a, w = d - a;
    const double vw0 = v.y() * w.z(), vw1 = v.z() * w.y();
    const double vw2 = v.z() * w.x(), vw3 = v.x() * w.z();
    const double vw4 = v.x() * w.y(), vw5 = v.y() * w.x();
    const double det = u.x() * (vw0 - vw1) + u.y() * (vw2 - vw3) + u.z() * (vw4 - vw5);
    const double permanent = std::abs(u.x()) * (std::abs(vw0) + std::abs(vw1)) +
                             std::abs(u.y()) * (std::abs(vw2) + std::abs(vw3)) +
                             std::abs(u.z()) * (std::abs(vw4) + std::abs(vw5));
    // Shewchuk 1997, orient3d's first error bound: |det - exact| <= (7 + 56 eps) eps permanent, eps = 2^-53,
    // where the differences are rounded too; doubled for margin.
    constexpr double kErrorBound = 2.0 * 7.771561172376102e-16;
    if (det > kErrorBound * permanent) return 1;
    if (-det > kErrorBound * permanent) return -1;
    return exactOrientation(a, b, c, d);
}

}  // namespace tinkerbox
