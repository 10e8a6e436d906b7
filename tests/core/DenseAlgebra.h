#pragma once
// Dense reference algebra for the core tests, compiled once: Eigen's decompositions are
// the heaviest templates the tests use, and each test file instantiating them took 10 s.
#include <Eigen/Core>

#include "core/math/Types.h"

namespace tinkerbox::test {

VecX symmetricEigenvalues(const Eigen::MatrixXd& a);           // ascending
VecX solveSymmetric(const Eigen::MatrixXd& a, const VecX& b);  // LDL^T: a may be semi-definite
VecX leastSquares(const Eigen::MatrixXd& a, const VecX& b);    // column-pivoting QR

}  // namespace tinkerbox::test
