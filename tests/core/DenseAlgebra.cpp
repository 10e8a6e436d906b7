#include "DenseAlgebra.h"

#include <Eigen/Dense>

namespace tinkerbox::test {

VecX symmetricEigenvalues(const Eigen::MatrixXd& a) {
    return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(a).eigenvalues();
}

VecX solveSymmetric(const Eigen::MatrixXd& a, const VecX& b) { return a.ldlt().solve(b); }

VecX leastSquares(const Eigen::MatrixXd& a, const VecX& b) { return a.colPivHouseholderQr().solve(b); }

}  // namespace tinkerbox::test
