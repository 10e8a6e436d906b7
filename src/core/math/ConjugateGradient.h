#pragma once
// Preconditioned conjugate gradient for symmetric positive (semi-)definite systems,
// matrix-free: the caller supplies y = A x and z = P^-1 r. Used by the implicit
// integrator (Baraff & Witkin 1998) and by the constraint solver (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes).
// On a singular but consistent system (redundant constraints) it converges to a
// least-squares solution. On an inconsistent one the residual's null-space part stays and
// the search directions turn into the null space: a caller that knows the scale of its
// matrix gives the Rayleigh quotient p.Ap / p.p below which a direction counts as null,
// and the solve stops there, reported as a breakdown (otherwise it stops at the cap).
#include <cmath>

#include "core/math/Types.h"

namespace tinkerbox {

struct CgSettings {
    double tolerance = 1e-6;  // stop when |r| <= tolerance * |b| (in the norm the caller's system uses)
    int maxIterations = 500;

    bool operator==(const CgSettings&) const = default;
};

struct CgResult {
    int iterations = 0;
    double relativeResidual = 0.0;
    bool converged = true;
    bool breakdown = false;  // a search direction in the (near) null space of A
};

// Solves A x = b starting from the x given (warm start). The stopping test does not
// depend on the start: |b - A x| <= tolerance |b|, whatever x was given, so a warm start
// saves iterations but never loosens the answer; a start worse than zero (|b - A x| > |b|)
// is dropped for zero. Work vectors are passed in so that repeated solves do not allocate.
struct CgWorkspace {
    VecX r, z, p, q;
};

template <class ApplyA, class ApplyPreconditioner>
CgResult conjugateGradient(ApplyA&& applyA, ApplyPreconditioner&& applyPreconditioner, const VecX& b, VecX& x,
                           const CgSettings& settings, CgWorkspace& w, double nullRayleighQuotient = 0.0) {
    CgResult result;
    const double bNorm = b.norm();
    if (bNorm == 0.0) {
        x.setZero();
        return result;
    }
    if (x.size() != b.size()) x = VecX::Zero(b.size());
    const double target = settings.tolerance * bNorm;
    applyA(x, w.q);
    w.r = b - w.q;
    double rNorm = w.r.norm();
    if (rNorm > bNorm) {
        x.setZero();
        w.r = b;
        rNorm = bNorm;
    }
    if (rNorm <= target) {
        result.relativeResidual = rNorm / bNorm;
        return result;
    }
    applyPreconditioner(w.r, w.z);
    w.p = w.z;
    double rz = w.r.dot(w.z);
    while (result.iterations < settings.maxIterations) {
        applyA(w.p, w.q);
        const double pq = w.p.dot(w.q);
        if (!(pq > nullRayleighQuotient * w.p.squaredNorm())) {
            result.breakdown = true;  // a direction in the (near) null space: A is (nearly) singular
            break;
        }
        const double alpha = rz / pq;
        x.noalias() += alpha * w.p;
        w.r.noalias() -= alpha * w.q;
        ++result.iterations;
        rNorm = w.r.norm();
        if (rNorm <= target) break;
        applyPreconditioner(w.r, w.z);
        const double rzNext = w.r.dot(w.z);
        w.p = w.z + (rzNext / rz) * w.p;
        rz = rzNext;
    }
    result.relativeResidual = rNorm / bNorm;
    result.converged = rNorm <= target;
    return result;
}

}  // namespace tinkerbox
