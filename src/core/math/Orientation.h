#pragma once
// The exact sign of an orientation determinant, the predicate that decides which side of a
// plane a point is on (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast
// Robust Geometric Predicates", Discrete & Computational Geometry 18, 1997, orient3d).
// Rounding can flip the sign of the determinant computed in doubles when the points are
// nearly coplanar; algorithms that combine such decisions (a convex hull) then contradict
// themselves. This one is right for every input: a floating-point estimate when its error
// bound proves the sign, otherwise the exact value as a floating-point expansion.
#include "core/math/Types.h"

namespace tinkerbox {

// The sign (-1, 0 or 1) of det[b - a, c - a, d - a] = ((b - a) x (c - a)) . (d - a): positive
// when d is above the plane through a, b, c on the side its normal (b - a) x (c - a) points
// to, i.e. when a, b, c are counter-clockwise seen from d. Exact for finite coordinates up
// to 1e100 in magnitude (beyond, products overflow) and not so small that products underflow.
int orientation(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

}  // namespace tinkerbox
