#pragma once
// Baraff & Witkin 1998, "Large Steps in Cloth Simulation", section 5.3: a particle in
// contact has its velocity change prescribed along the contact normals and free across
// them. The filter of one velocity block i is S_i, the projection onto the free
// directions (I - n n^T for one normal, I - n1 n1^T - n2 n2^T for two orthonormal ones,
// 0 for three), and z_i, the change along the constrained directions: dv_i = S_i y_i + z_i.
//
// The implicit step solves A dv = b (A = M - h dF/dv - h^2 dF/dx, symmetric positive
// definite). Baraff & Witkin filter the residual and search directions of CG (their
// modified PCG); the same answer comes from CG, unchanged, on the projected system
//   (S A S + P M P) y = S (b - A z),   P = I - S,   dv = S y + z:
// S A S is definite on the free directions, P M P on the constrained ones, and neither
// maps into the other's, so y has no constrained part and S (A dv - b) = 0: in the free
// directions the step is the unconstrained one, and A dv - b = P (A dv - b) is the
// impulse the constraints applied over the step. The matrix keeps its symmetric block
// pattern, so the SGS preconditioner and Eisenstat's trick work on it as on A.
#include <array>
#include <vector>

#include "core/math/BlockSparseMatrix.h"

namespace tinkerbox {

struct VelocityFilter {
    Index block = 0;
    Mat3 free = Mat3::Identity();  // S_i
    Vec3 change = Vec3::Zero();    // z_i, with S_i z_i = 0
    // The constraints' unit normals, as given.
    std::array<Vec3, 3> normals{};
    int count = 0;

    // Adds the constraint n . dv_i = target (n unit, pointing to where the contact pushes).
    // A normal within about half a degree of the span of those already there adds nothing.
    void constrain(const Vec3& n, double target);
};

// The projected system above over a block matrix J (Upper storage) plus block-diagonal M,
// and what the constraints did.
class FilteredSystem {
public:
    // Turns (J + M) dv = rhs into the projected system for y, in place; the warm start x
    // is projected onto the free directions. Reads J before changing it.
    void apply(const std::vector<VelocityFilter>& filters, BlockSparseMatrix& J, std::vector<Mat3>& mass, VecX& rhs,
               VecX& x);
    const std::vector<VelocityFilter>& filters() const { return filters_; }
    // dv = S y + z on the filtered blocks: exactly z along the constrained directions.
    void recover(VecX& dv) const;
    // The constraint impulse (A dv - b)_i of each filter of the last apply(), A and b
    // those before filtering: the contact force times h.
    void impulses(const VecX& dv, std::vector<Vec3>& out) const;
    // Baraff & Witkin's release: the blocks of the filters of the last apply() whose impulse
    // (from impulses()) pulls, negative along one of their normals; in the filters' order.
    void pulling(const std::vector<Vec3>& impulses, std::vector<Index>& blocks) const;

private:
    struct Coupling {  // a block (i, j), j >= i, of J with i or j filtered, before filtering
        Index row, column;
        Index stored;  // its place in J's values
        Mat3 value;
    };
    std::vector<VelocityFilter> filters_;
    std::vector<int> filterOf_;  // per block: its filter, or -1
    std::vector<Coupling> couplings_;
    std::vector<Mat3> mass_;  // of the filtered blocks, before filtering
    std::vector<Vec3> rhs_;   // likewise
};

}  // namespace tinkerbox
