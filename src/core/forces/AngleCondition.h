#pragma once
// The condition C of an element whose energy is a spring on an angle (a strand's joint, a
// cloth hinge): C = difference(theta(x)), with theta and its gradient from one function
// written for any scalar type. Exact Jacobians need H = d2theta/dx2: forward-mode automatic
// differentiation of that gradient (Eigen's AutoDiffScalar) gives it exactly, so only when
// the Exact form is asked for.
#include <unsupported/Eigen/AutoDiff>

#include "core/forces/ParticleElementForce.h"

namespace tinkerbox {

// evaluate(x, theta, gradient) sets theta and its gradient and returns false where theta is
// undefined (there C = 0: no force). The Hessian is set only when withHessian.
template <int N, class Evaluate, class Difference>
ElementCondition<N> angleCondition(const typename ElementCondition<N>::Vector& x, bool withHessian, Evaluate&& evaluate,
                                   Difference&& difference) {
    ElementCondition<N> c;
    if (!withHessian) {
        double theta = 0.0;
        if (evaluate(x, theta, c.gradient)) c.value = difference(theta);
        return c;
    }
    constexpr int n = 3 * N;
    c.hessian.setZero();
    using Scalar = Eigen::AutoDiffScalar<Eigen::Matrix<double, n, 1>>;
    Eigen::Matrix<Scalar, n, 1> xs, gs;
    for (int i = 0; i < n; ++i) xs[i] = Scalar(x[i], n, i);
    Scalar theta;
    if (!evaluate(xs, theta, gs)) return c;
    c.value = difference(theta.value());
    for (int i = 0; i < n; ++i) {
        c.gradient[i] = gs[i].value();
        c.hessian.row(i) = gs[i].derivatives().transpose();
    }
    return c;
}

}  // namespace tinkerbox
