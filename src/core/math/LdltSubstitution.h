#pragma once
// Forward and back substitution with a sparse factor P A P^T = L D L^T, for three right-hand
// sides at once (x, y and z of each unknown stored together, one pass over L instead of
// three), on two threads for big systems.
//
// The nonzeros of column j of L lie in rows that are ancestors of j in the elimination tree,
// whose parent of j is the first of them (Liu 1990, "The Role of Elimination Trees in Sparse
// Factorization", SIAM J. Matrix Anal. Appl. 11(1), theorem 3.1). So two disjoint subtrees
// meet only in their common ancestors. The unknowns are split into two sets of subtrees of
// about equal work and the top, every ancestor of theirs:
// - L z = b: each set's columns at once, on its own thread; their updates of the top's rows
//   go to a buffer per set, added to the top's rows afterwards in a fixed order; then the
//   top's columns;
// - L^T x = z: the top's rows first, then both sets at once (each reads itself and the top).
// The split depends on the factor alone, so the answer has the same bits on one core or two.
// Below kSplitUnknowns nothing is split, and the order of every sum is that of the plain
// column-by-column substitution.
#include <array>
#include <cstdint>
#include <vector>

#include "core/math/TwoWayParallel.h"
#include "core/math/Types.h"

namespace tinkerbox {

class LdltSubstitution {
public:
    static constexpr Index kSplitUnknowns = 2048;

    // L: unit lower triangular, in compressed columns without its diagonal, rows ascending
    // in each column (start has unknowns + 1 entries); inverseD: 1 / D.
    void set(Index unknowns, const std::vector<Index>& start, const std::vector<std::int32_t>& row,
             const std::vector<double>& value, const VecX& inverseD);

    // b <- (L D L^T)^-1 b, b holding 3 numbers per unknown.
    void solve(VecX& b, TwoWayParallel& parallel);

    // How the unknowns were split: those of the first set, of the second, and of the top.
    std::array<Index, 3> partSizes() const;

private:
    // Some entries of each of a part's columns, compressed: column c's are start[c] ..
    // start[c + 1] - 1.
    struct Entries {
        std::vector<Index> start{0};
        std::vector<std::int32_t> row;
        std::vector<double> value;
    };
    // The columns of one set (or the top), ascending, each with its entries in rows of the
    // same set and (for a set) those in rows of the top.
    struct Part {
        std::vector<std::int32_t> columns;
        Entries own, top;
    };
    // out_r -= L_rj z over the entries of a part's column c.
    static void subtractColumn(const Entries& entries, std::size_t c, const double z[3], double* out);
    // sum += sum_r L_rj x_r over the entries of a part's column c.
    static void addColumnProduct(const Entries& entries, std::size_t c, const double* x, double sum[3]);
    static void forward(const Part& part, double* v, double* top);
    static void backward(const Part& part, double* v);

    Index unknowns_ = 0;
    std::array<Part, 3> parts_;  // the two sets, then the top
    VecX inverseD_;
    std::array<VecX, 2> topUpdates_;  // per set, its updates of the top's rows
};

}  // namespace tinkerbox
