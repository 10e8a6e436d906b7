#pragma once
// Preconditioned conjugate gradient for symmetric positive (semi-)definite systems,
// matrix-free: the caller supplies y = A x and z = P^-1 r. Used by the implicit
// integrator (Baraff & Witkin 1998) and by the constraint solver (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes).
// On a singular but consistent system (redundant constraints) it converges to a
// least-squares solution; on an inconsistent one it stops at the iteration cap.
#include <cmath>

#include "core/Types.h"

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
};

// Solves A x = b starting from the x given (warm start). Work vectors are passed
// in so that repeated solves do not allocate.
struct CgWorkspace {
    VecX r, z, p, q;
};

template <class ApplyA, class ApplyPreconditioner>
CgResult conjugateGradient(ApplyA&& applyA, ApplyPreconditioner&& applyPreconditioner, const VecX& b, VecX& x,
                           const CgSettings& settings, CgWorkspace& w) {
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
        if (!(pq > 0.0)) break;  // direction in the null space (singular A) or breakdown
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
