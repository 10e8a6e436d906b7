#pragma once
// Basic numeric types shared by the simulation core (Eigen only).
#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products

namespace tinkerbox {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;
using Index = Eigen::Index;

// The 3 coordinates of particle i inside a 3n-long vector.
inline auto block3(VecX& v, Index i) { return v.segment<3>(3 * i); }
inline auto block3(const VecX& v, Index i) { return v.segment<3>(3 * i); }

}  // namespace tinkerbox
