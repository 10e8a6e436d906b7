#pragma once
// Forces on small groups of particles (a triangle, a hinge of two triangles, a joint of
// a strand): each element gives its local force and its local Jacobians over its N
// particles, and this base does what every such force needs around them: gather the
// particles' positions and velocities, scatter the forces, the coupling pattern, and the
// assembly of the 3x3 blocks into the Jacobians (Baraff and Witkin, Large Steps in Cloth
// Simulation, SIGGRAPH 1998, section 5: "the force on i depends on j" for every pair of an element).
//
// A scalar condition C(x) with energy k/2 C^2 and Baraff-Witkin damping d = -kd dC/dx Cdot
// (section 4.5) gives the force f = -(k C + kd Cdot) g, g = dC/dx, and the Jacobians
//   dF/dx = -k (g g^T + C H) - kd (Cdot H + g (H v)^T),  dF/dv = -kd g g^T,   H = d2C/dx2.
// The definite form keeps -k g g^T and -kd g g^T (negative semi-definite) and the
// curvature term -k C H only where that is negative semi-definite too (ConditionCurvature).
#include <array>
#include <stdexcept>
#include <vector>

#include "core/state/ModelState.h"
#include "core/forces/ElementPartition.h"
#include "core/forces/Force.h"

namespace tinkerbox {

// What the definite Jacobian keeps of -k C H.
enum class ConditionCurvature {
    Drop,              // indefinite whatever the sign of C (angles, shear)
    KeepWhenPositive,  // H is positive semi-definite: kept as -k max(C, 0) H (stretch)
};

template <int N>
struct ElementCondition {
    using Vector = Eigen::Matrix<double, 3 * N, 1>;
    using Matrix = Eigen::Matrix<double, 3 * N, 3 * N>;
    double value = 0.0;  // C
    Vector gradient = Vector::Zero();
    Matrix hessian;  // set only where the Jacobians need it (left unset on the force's path: 3N x 3N stores)
};

// f += -(k C + kd Cdot) g
template <int N>
void addConditionForce(const ElementCondition<N>& c, double k, double kd, const typename ElementCondition<N>::Vector& v,
                       typename ElementCondition<N>::Vector& f) {
    f -= (k * c.value + kd * c.gradient.dot(v)) * c.gradient;
}

// K += cx dF/dx + cv dF/dv of the condition's force, and KxV += dF/dx v.
template <int N>
void addConditionJacobians(const ElementCondition<N>& c, double k, double kd,
                           const typename ElementCondition<N>::Vector& v, JacobianForm form,
                           ConditionCurvature curvature, double cx, double cv, typename ElementCondition<N>::Matrix& K,
                           typename ElementCondition<N>::Vector& KxV) {
    const double gv = c.gradient.dot(v);
    if (form == JacobianForm::Exact) {
        const typename ElementCondition<N>::Vector Hv = c.hessian * v;
        const typename ElementCondition<N>::Matrix Kx =
            -k * (c.gradient * c.gradient.transpose() + c.value * c.hessian) -
            kd * (gv * c.hessian + c.gradient * Hv.transpose());
        K += cx * Kx;
        K.noalias() -= (cv * kd) * c.gradient * c.gradient.transpose();
        KxV.noalias() += Kx * v;
        return;
    }
    // -k g g^T and -kd g g^T in one rank-one update; dF/dx v = -k g (g . v) [- k C H v].
    K.noalias() -= (cx * k + cv * kd) * c.gradient * c.gradient.transpose();
    KxV -= (k * gv) * c.gradient;
    if (curvature == ConditionCurvature::KeepWhenPositive && c.value > 0.0) {
        K -= (cx * k * c.value) * c.hessian;
        KxV.noalias() -= (k * c.value) * (c.hessian * v);
    }
}

template <int N>
class ParticleElementForce : public Force {
public:
    using Element = std::array<Index, N>;
    using Vector = Eigen::Matrix<double, 3 * N, 1>;
    using Matrix = Eigen::Matrix<double, 3 * N, 3 * N>;

    // Where an element's local Jacobian K (3N x 3N, in its particles' 3x3 blocks) goes in J:
    // each block is added to J's stored block of its particles.
    class Blocks {
    public:
        Blocks(const std::array<Index, N * N>& stored, BlockSparseMatrix& J) : stored_(stored), J_(J) {}
        // Every stored block of a dense K (Full storage: all of them; Upper: those of J's upper triangle).
        void addDense(const Matrix& K) {
            for (int m = 0; m < N; ++m)
                for (int n = 0; n < N; ++n)
                    if (const Index k = stored_[N * m + n]; k >= 0) J_.value(k) += K.template block<3, 3>(3 * m, 3 * n);
        }
        // K_mn += B and K_nm += B^T, m <= n (B symmetric for m = n), of a symmetric K with Upper
        // storage: one of the two is stored. B's entries come from entry(r, c), added where they
        // are computed (a 3x3 temporary made of scalar and vector stores, read back as vectors,
        // stalled the loads).
        template <class Entry>
        void addSymmetric(int m, int n, Entry&& entry) {
            if (const Index k = stored_[N * m + n]; k >= 0) {
                Mat3& b = J_.value(k);
                for (int c = 0; c < 3; ++c)
                    for (int r = 0; r < 3; ++r) b(r, c) += entry(r, c);
            } else {
                Mat3& b = J_.value(stored_[N * n + m]);
                for (int c = 0; c < 3; ++c)
                    for (int r = 0; r < 3; ++r) b(r, c) += entry(c, r);
            }
        }

    private:
        const std::array<Index, N * N>& stored_;
        BlockSparseMatrix& J_;
    };

    Index elementCount() const { return static_cast<Index>(elements_.size()); }
    const Element& element(Index e) const { return elements_[e]; }

    // The two parts of the elements at once when parallel is given (ElementPartition.h).
    void accumulate(const ModelState& state, VecX& f, TwoWayParallel* parallel) const override {
        const VecX& positions = state.positions();
        const VecX& velocities = state.velocities();
        partition(state).forEach(parallel, [&](Index e) { accumulateElement(state, positions, velocities, e, f); });
    }

    double potentialEnergy(const ModelState& state) const override {
        double u = 0.0;
        const VecX& positions = state.positions();
        Vector x, v;
        for (Index e = 0; e < elementCount(); ++e) {
            gather(positions, positions, e, x, v);
            u += elementEnergy(e, x);
        }
        return u;
    }

    void appendCouplings(const ModelState&, std::vector<std::pair<Index, Index>>& out) const override {
        for (const Element& el : elements_)
            for (int m = 0; m < N; ++m)
                for (int n = m + 1; n < N; ++n) out.emplace_back(el[m], el[n]);
    }

    void bindPattern(const ModelState&, const BlockSparseMatrix& pattern) override {
        blocks_.resize(elements_.size());
        for (std::size_t e = 0; e < elements_.size(); ++e)
            for (int m = 0; m < N; ++m)
                for (int n = 0; n < N; ++n) blocks_[e][N * m + n] = pattern.find(elements_[e][m], elements_[e][n]);
    }

    void addJacobians(const ModelState& state, const JacobianRequest& request, BlockSparseMatrix& J) const override {
        if (blocks_.size() != elements_.size())
            throw std::logic_error("ParticleElementForce: Jacobian pattern not bound");
        const VecX& positions = state.positions();
        const VecX& velocities = state.velocities();
        Vector x, v, KxV;
        Matrix K;
        for (Index e = 0; e < elementCount(); ++e) {
            gather(positions, velocities, e, x, v);
            K.setZero();
            KxV.setZero();
            elementJacobians(state, e, x, v, request, K, KxV);
            scatterJacobians(e, K, KxV, request, J);
        }
    }

    // Definite: the two parts of the elements at once (ElementPartition.h), each element's
    // force and blocks from one evaluation.
    void accumulateWithJacobians(const ModelState& state, const JacobianRequest& request, VecX& f,
                                 BlockSparseMatrix& J) const override {
        if (request.form != JacobianForm::Definite) {
            Force::accumulateWithJacobians(state, request, f, J);
            return;
        }
        if (blocks_.size() != elements_.size())
            throw std::logic_error("ParticleElementForce: Jacobian pattern not bound");
        const VecX& positions = state.positions();
        const VecX& velocities = state.velocities();
        partition(state).forEach(request.parallel, [&](Index e) {
            Vector x, v, fe = Vector::Zero(), KxV = Vector::Zero();
            gather(positions, velocities, e, x, v);
            Blocks blocks(blocks_[e], J);
            definiteElementForceAndJacobians(state, e, x, v, request, fe, blocks, KxV);
            for (int m = 0; m < N; ++m) block3(f, elements_[e][m]) += fe.template segment<3>(3 * m);
            if (request.dFdxTimesVelocity)
                for (int m = 0; m < N; ++m)
                    block3(*request.dFdxTimesVelocity, elements_[e][m]) += KxV.template segment<3>(3 * m);
        });
    }

protected:
    // Elements join N distinct particles.
    void addElement(const Element& el) {
        for (int m = 0; m < N; ++m)
            for (int n = m + 1; n < N; ++n)
                if (el[m] == el[n]) throw std::invalid_argument("an element joins a particle to itself");
        elements_.push_back(el);
        blocks_.clear();  // the Jacobian pattern must be rebound
    }

    // f += element e's force (positions and velocities: the state's, fetched once per pass).
    void accumulateElement(const ModelState& state, const VecX& positions, const VecX& velocities, Index e,
                           VecX& f) const {
        Vector x, v, fe;
        gather(positions, velocities, e, x, v);
        fe.setZero();
        elementForce(state, e, x, v, fe);
        for (int m = 0; m < N; ++m) block3(f, elements_[e][m]) += fe.template segment<3>(3 * m);
    }

    // fe += the element's force; K += cx dF/dx + cv dF/dv and KxV += dF/dx v (local, 3N),
    // in the request's form.
    virtual void elementForce(const ModelState& state, Index e, const Vector& x, const Vector& v, Vector& fe) const = 0;
    virtual double elementEnergy(Index e, const Vector& x) const = 0;
    virtual void elementJacobians(const ModelState& state, Index e, const Vector& x, const Vector& v,
                                  const JacobianRequest& request, Matrix& K, Vector& KxV) const = 0;
    // Both, in the definite form (Upper storage), the blocks added straight into J: an element
    // whose K has structure (rank-one terms) adds its blocks without a dense K and shares the
    // work of its force and Jacobians. By default the two calls, through a dense K.
    virtual void definiteElementForceAndJacobians(const ModelState& state, Index e, const Vector& x, const Vector& v,
                                                  const JacobianRequest& request, Vector& fe, Blocks& blocks,
                                                  Vector& KxV) const {
        elementForce(state, e, x, v, fe);
        Matrix K = Matrix::Zero();
        elementJacobians(state, e, x, v, request, K, KxV);
        blocks.addDense(K);
    }

private:
    void scatterJacobians(Index e, const Matrix& K, const Vector& KxV, const JacobianRequest& request,
                          BlockSparseMatrix& J) const {
        // With Upper storage the blocks below the diagonal are not stored (find gave -1):
        // the definite local matrices are symmetric, so their transposes are written instead.
        Blocks(blocks_[e], J).addDense(K);
        if (request.dFdxTimesVelocity)
            for (int m = 0; m < N; ++m)
                block3(*request.dFdxTimesVelocity, elements_[e][m]) += KxV.template segment<3>(3 * m);
    }

    // positions and velocities: the state's, fetched once per pass (with rigid bodies,
    // ModelState::velocities() assembles a vector).
    void gather(const VecX& positions, const VecX& velocities, Index e, Vector& x, Vector& v) const {
        for (int m = 0; m < N; ++m) {
            x.template segment<3>(3 * m) = block3(positions, elements_[e][m]);
            v.template segment<3>(3 * m) = block3(velocities, elements_[e][m]);
        }
    }

    std::vector<Element> elements_;
    // The elements' partition, made on first use after elements were added (they are only
    // ever added): the force passes without a Jacobian need it as well.
    const ElementPartition& partition(const ModelState& state) const {
        if (partitioned_ != elementCount()) {
            partition_.assign<N>(elementCount(), state.particleCount(), [&](Index e) { return elements_[e]; });
            partitioned_ = elementCount();
        }
        return partition_;
    }

    std::vector<std::array<Index, N * N>> blocks_;  // per element, block (m, n) in the bound pattern
    mutable ElementPartition partition_;
    mutable Index partitioned_ = -1;  // how many elements partition_ was made for
};

}  // namespace tinkerbox
