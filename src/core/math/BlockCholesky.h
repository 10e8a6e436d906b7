#pragma once
// Sparse Cholesky factorization A = L L^T of a symmetric positive definite matrix made of
// B x B blocks (3: a mechanical system's velocity blocks, a particle's or a body's linear or
// angular one; 6: whole rigid bodies), for a block pattern that is analysed once and
// factored many times.
//
// - Ordering: approximate minimum degree on the block graph (Amestoy, Davis & Duff, "An
//   approximate minimum degree ordering algorithm", SIAM J. Matrix Anal. Appl. 17(4), 1996;
//   Eigen's AMDOrdering).
// - Pattern of L: the elimination tree, parent(j) = the first row below j in column j of L;
//   column j of L holds A's column j and the columns of j's children less themselves (Liu,
//   "The Role of Elimination Trees in Sparse Factorization", SIAM J. Matrix Anal. Appl.
//   11(1), 1990, theorem 3.1 and section 3).
// - Numbers: left-looking by block columns. Column j is A's column j less L_ik L_jk^T for
//   every earlier column k that has blocks in rows i and j; then L_jj = chol(S_jj) and
//   L_ij = S_ij L_jj^-T. The analysis lists those block updates once, so that a
//   factorization is a pass over a list of B x B products with no searching (a pyramid of
//   210 boxes: 210 bodies and about 5,000 updates of 6 x 6 blocks, or 420 velocity blocks
//   and about 30,000 updates of 3 x 3 ones, which take three times as long).
// A dof that is held (a planar body's motion out of its plane) takes a 1 on A's diagonal
// and a 0 in its right-hand side.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/math/Types.h"

namespace tinkerbox {

template <int B>
class BlockCholesky {
public:
    using Block = Eigen::Matrix<double, B, B>;

    // The pattern of A's lower triangle: block pairs (i, j), i > j (the diagonal blocks are
    // always there; repeated pairs count once). Orders the blocks and finds L's pattern and
    // the updates of a factorization.
    void analyze(Index blocks, std::vector<std::pair<Index, Index>> lower);
    Index blocks() const { return blocks_; }
    // Where factorize() expects block (i, j) of A's lower triangle (i >= j): an index into
    // its values, or -1 when the pair was not in the analysed pattern.
    Index slot(Index i, Index j) const;
    Index slots() const { return static_cast<Index>(slotTarget_.size()); }

    // L from A's lower blocks, values[slot(i, j)] = A_ij. Returns false when a pivot block
    // is not positive definite (A is not), and the factor is then unusable.
    bool factorize(const std::vector<Block>& values);
    // x <- A^-1 x, with B numbers per block.
    void solve(VecX& x) const;

private:
    struct Update {
        std::int32_t target, left, right;  // L[target] -= L[left] L[right]^T
    };

    Index blocks_ = 0;
    std::vector<Index> position_;  // of each of A's blocks in the factor's order
    std::vector<Index> original_;  // the block of A at each position
    // L by columns: the blocks of column j are start_[j] .. start_[j + 1] - 1, its diagonal
    // first, then its rows ascending.
    std::vector<Index> start_;
    std::vector<std::int32_t> row_;
    std::vector<Block> factor_;
    std::vector<Block> pivotInverse_;  // L_jj^-1
    // A's slots: the sorted (i, j) pairs of A's lower pattern (diagonals included), where
    // each goes in L's storage and whether it goes there transposed (the order turned it
    // above the diagonal).
    std::vector<std::pair<Index, Index>> slotPair_;
    std::vector<std::int32_t> slotTarget_;
    std::vector<char> slotTransposed_;
    // The updates of each column j: updateStart_[j] .. updateStart_[j + 1] - 1.
    std::vector<Update> updates_;
    std::vector<Index> updateStart_;
};

}  // namespace tinkerbox
