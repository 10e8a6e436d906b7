#pragma once
// Basic numeric types shared by the simulation core (Eigen only).
#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products
#include <cmath>
#include <limits>
#include <optional>

namespace tinkerbox {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;
using Index = Eigen::Index;

// The 3 coordinates of particle i inside a 3n-long vector.
inline auto block3(VecX& v, Index i) { return v.segment<3>(3 * i); }
inline auto block3(const VecX& v, Index i) { return v.segment<3>(3 * i); }

// v / |v| for any finite, non-zero v; nullopt for a zero or non-finite v. Where |v|^2
// would overflow (v = [1e300, 0, 0]) or underflow (v = [1e-300, 0, 0]) and v.normalized()
// return zero or v itself, v is first divided by its largest component. Otherwise the
// result is v.normalized() exactly, so that a unit vector read back from a file is the
// one that was saved.
inline std::optional<Vec3> unitVector(const Vec3& v) {
    if (!v.allFinite()) return std::nullopt;
    const double squaredNorm = v.squaredNorm();
    if (std::isfinite(squaredNorm) && squaredNorm >= std::numeric_limits<double>::min())
        return Vec3(v / std::sqrt(squaredNorm));
    const double largest = v.cwiseAbs().maxCoeff();
    if (largest == 0.0) return std::nullopt;
    const Vec3 scaled = v / largest;  // its norm is between 1 and sqrt(3)
    return Vec3(scaled / scaled.norm());
}

}  // namespace tinkerbox
