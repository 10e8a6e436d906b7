#include "core/forces/DampedSpring.h"

#include <stdexcept>

#include "core/dynamics/ParticleSystem.h"

namespace tinkerbox {

namespace {
// Below this length the spring direction is undefined: the spring exerts nothing.
constexpr double kDegenerateLength = 1e-12;
}  // namespace

Vec3 dampedSpringForce(const DampedSpring& s, const Vec3& xa, const Vec3& xb, const Vec3& va, const Vec3& vb) {
    const Vec3 l = xa - xb;
    const double L = l.norm();
    if (L < kDegenerateLength) return Vec3::Zero();
    const Vec3 n = l / L;
    return -(s.stiffness * (L - s.restLength) + s.damping * (va - vb).dot(n)) * n;
}

void dampedSpringJacobians(const DampedSpring& s, const Vec3& xa, const Vec3& xb, const Vec3& va, const Vec3& vb,
                           JacobianForm form, Mat3& Kx, Mat3& Kv) {
    const Vec3 l = xa - xb;
    const double L = l.norm();
    if (L < kDegenerateLength) {
        Kx.setZero();
        Kv.setZero();
        return;
    }
    const Vec3 n = l / L;
    const Mat3 nn = n * n.transpose();
    const Mat3 P = Mat3::Identity() - nn;
    Kv = -s.damping * nn;
    if (form == JacobianForm::Exact) {
        const Vec3 ldot = va - vb;
        Kx = -s.stiffness * (nn + (1.0 - s.restLength / L) * P) -
             (s.damping / L) * (n * (P * ldot).transpose() + ldot.dot(n) * P);
    } else {
        const double transverse = std::max(0.0, 1.0 - s.restLength / L);
        Kx = -s.stiffness * (nn + transverse * P);
    }
}

double dampedSpringEnergy(const DampedSpring& s, const Vec3& xa, const Vec3& xb) {
    const double stretch = (xa - xb).norm() - s.restLength;
    return 0.5 * s.stiffness * stretch * stretch;
}

Index DampedSpringSet::add(const DampedSpring& s) {
    springs_.push_back(s);
    blocks_.clear();  // the Jacobian pattern must be rebound
    return size() - 1;
}

void DampedSpringSet::clear() {
    springs_.clear();
    blocks_.clear();
}

void DampedSpringSet::accumulate(const ParticleSystem& ps, VecX& f) const {
    const VecX& x = ps.positions();
    const VecX& v = ps.velocities();
    for (const DampedSpring& s : springs_) {
        const Vec3 fa = dampedSpringForce(s, block3(x, s.a), block3(x, s.b), block3(v, s.a), block3(v, s.b));
        block3(f, s.a) += fa;
        block3(f, s.b) -= fa;
    }
}

double DampedSpringSet::potentialEnergy(const ParticleSystem& ps) const {
    double u = 0.0;
    for (const DampedSpring& s : springs_) u += dampedSpringEnergy(s, ps.position(s.a), ps.position(s.b));
    return u;
}

void DampedSpringSet::appendCouplings(std::vector<std::pair<Index, Index>>& out) const {
    for (const DampedSpring& s : springs_) out.emplace_back(s.a, s.b);
}

void DampedSpringSet::bindPattern(const BlockSparseMatrix& pattern) {
    blocks_.resize(springs_.size());
    for (std::size_t k = 0; k < springs_.size(); ++k) {
        const DampedSpring& s = springs_[k];
        blocks_[k] = {pattern.find(s.a, s.a), pattern.find(s.a, s.b), pattern.find(s.b, s.a), pattern.find(s.b, s.b)};
    }
}

void DampedSpringSet::addJacobians(const ParticleSystem& ps, const JacobianRequest& request,
                                   BlockSparseMatrix& J) const {
    if (blocks_.size() != springs_.size()) throw std::logic_error("DampedSpringSet: Jacobian pattern not bound");
    const VecX& x = ps.positions();
    const VecX& v = ps.velocities();
    Mat3 Kx, Kv;
    for (std::size_t k = 0; k < springs_.size(); ++k) {
        const DampedSpring& s = springs_[k];
        const Vec3 va = block3(v, s.a), vb = block3(v, s.b);
        dampedSpringJacobians(s, block3(x, s.a), block3(x, s.b), va, vb, request.form, Kx, Kv);
        const Mat3 K = request.cx * Kx + request.cv * Kv;
        // With Upper storage only one of ab, ba is stored; the definite blocks are symmetric.
        const auto& [aa, ab, ba, bb] = blocks_[k];
        J.value(aa) += K;
        J.value(bb) += K;
        for (const Index off : {ab, ba})
            if (off >= 0) J.value(off) -= K;
        if (request.dFdxTimesVelocity) {
            const Vec3 product = Kx * (va - vb);
            block3(*request.dFdxTimesVelocity, s.a) += product;
            block3(*request.dFdxTimesVelocity, s.b) -= product;
        }
    }
}

}  // namespace tinkerbox
