#pragma once
// Coulomb's friction cone |j_t| <= mu j_n linearized for a quadratic program (Schmidl,
// Optimization-Based Animation, PhD thesis, Univ. of Miami 2002, section 6.2.1, eqs. 6.22
// and 6.23): the pyramid of eight sides inscribed in the cone, whose inward side normals are
//   u_h = mu cos(pi/8) n + cos(pi h/4) n_x + sin(pi h/4) n_y,   h = 0..7,
// and j lies inside when u_h . j >= 0 for every h. The octagon's inner radius is
// cos(pi/8) of the circle's, so the pyramid holds back at least 92% of the cone's friction
// in every direction. In a plane the one tangent makes the cone two sides, exactly.
#include <array>
#include <cmath>
#include <numbers>

namespace tinkerbox {

struct PyramidSide {
    double normal = 0.0, tangent1 = 0.0, tangent2 = 0.0;  // u_h in the contact frame (n, n_x, n_y)
};

// The sides for a contact with 2 tangents (8 sides) or 1 (2 sides, |j_t| <= mu j_n); count
// says how many of the array are used.
struct FrictionPyramid {
    std::array<PyramidSide, 8> sides{};
    int count = 0;
};

inline FrictionPyramid frictionPyramid(double friction, int tangents) {
    FrictionPyramid p;
    if (tangents == 1) {
        p.sides[0] = {friction, 1.0, 0.0};
        p.sides[1] = {friction, -1.0, 0.0};
        p.count = 2;
        return p;
    }
    const double inner = friction * std::cos(std::numbers::pi / 8.0);
    for (int h = 0; h < 8; ++h) {
        const double angle = std::numbers::pi * h / 4.0;
        p.sides[static_cast<std::size_t>(h)] = {inner, std::cos(angle), std::sin(angle)};
    }
    p.count = 8;
    return p;
}

}  // namespace tinkerbox
