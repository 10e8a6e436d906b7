#pragma once
// Damped springs between particle pairs (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes):
//   l = xa - xb, ldot = va - vb, fa = -[ks (|l| - r) + kd (ldot.l)/|l|] l/|l|, fb = -fa.
// All the springs of a model live in one DampedSpringSet so that a 128x128 cloth
// (about 100k springs) is one tight loop rather than 100k virtual calls.
#include <array>
#include <vector>

#include "core/forces/Force.h"

namespace tinkerbox {

struct DampedSpring {
    Index a = 0;
    Index b = 0;
    double stiffness = 0.0;   // ks
    double damping = 0.0;     // kd
    double restLength = 0.0;  // r

    bool operator==(const DampedSpring&) const = default;
};

// Force on particle a; particle b receives the opposite.
Vec3 dampedSpringForce(const DampedSpring& s, const Vec3& xa, const Vec3& xb, const Vec3& va, const Vec3& vb);

// The block dfa/dxa (Kx) and dfa/dva (Kv). The other blocks follow by sign:
// dfa/dxb = -Kx, dfb/dxa = -Kx, dfb/dxb = Kx (same for v).
// Exact: Kx = -ks [n n^T + (1 - r/L)(I - n n^T)] - kd [n ldot^T P + (ldot.n) P] / L, P = I - n n^T,
//        Kv = -kd n n^T.
// Definite: the damping terms of Kx are dropped and (1 - r/L) is clamped at 0, which keeps
// the implicit matrix symmetric positive definite when the spring is compressed.
void dampedSpringJacobians(const DampedSpring& s, const Vec3& xa, const Vec3& xb, const Vec3& va, const Vec3& vb,
                           JacobianForm form, Mat3& Kx, Mat3& Kv);

double dampedSpringEnergy(const DampedSpring& s, const Vec3& xa, const Vec3& xb);

class DampedSpringSet final : public Force {
public:
    Index add(const DampedSpring& s);
    void clear();
    Index size() const { return static_cast<Index>(springs_.size()); }
    const std::vector<DampedSpring>& springs() const { return springs_; }
    DampedSpring& operator[](Index k) { return springs_[k]; }
    const DampedSpring& operator[](Index k) const { return springs_[k]; }

    void accumulate(const ParticleSystem& ps, VecX& f) const override;
    double potentialEnergy(const ParticleSystem& ps) const override;
    void appendCouplings(std::vector<std::pair<Index, Index>>& out) const override;
    void bindPattern(const BlockSparseMatrix& pattern) override;
    void addJacobians(const ParticleSystem& ps, const JacobianRequest& request, BlockSparseMatrix& J) const override;

private:
    std::vector<DampedSpring> springs_;
    std::vector<std::array<Index, 4>> blocks_;  // positions of blocks aa, ab, ba, bb in the bound pattern
};

}  // namespace tinkerbox
