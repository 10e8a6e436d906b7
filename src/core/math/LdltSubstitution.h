#pragma once
// Forward and back substitution with a sparse factor P A P^T = L D L^T, for three right-hand
// sides at once (x, y and z of each unknown), on two threads for big systems.
//
// Supernodes. Consecutive columns whose structure below their diagonal block is the same make
// a supernode, stored dense (Ng & Peyton 1993, "Block sparse Cholesky algorithms on advanced
// uniprocessor computers", section 2); a column joins its child's supernode also when that
// stores at most kRelaxedZeros explicit zeros more (relaxed supernodes: Ashcraft & Grimes
// 1989, "The influence of relaxed supernode partitions on the multifrontal method"). Each
// supernode is cut into panels of at most kPanelWidth columns; a panel's rows are the
// supernode's later columns and the rows below it. Each unknown's three numbers are kept as
// one vector of four (the fourth zero), so that an entry of L costs one vector product
// whichever of the three it acts on, and a panel's row one index; the caller keeps its
// right-hand sides so, in this numbering (position()), and they are solved where they lie.
//
// Two threads. The nonzeros of column j of L lie in rows that are ancestors of j in the
// elimination tree, whose parent of j is the first of them (Liu 1990, "The Role of Elimination
// Trees in Sparse Factorization", SIAM J. Matrix Anal. Appl. 11(1), theorem 3.1). So two
// disjoint subtrees meet only in their common ancestors. The unknowns are split into two
// sets of subtrees of about equal work and the top, every ancestor of theirs, and numbered
// set by set (a topological order of the tree like L's own, so the factor is L renumbered):
// - L z = b: each set's panels at once, on its own thread; their updates of the top's rows
//   go to a buffer per set, added to the top's rows afterwards in a fixed order; then the
//   top's panels;
// - L^T x = D^-1 z: the top's panels first, then both sets at once (each reads itself and
//   the top).
// The split and the panels depend on the factor alone (or on the split the caller gives, for
// a factor ordered set by set already), so the answer has the same bits on one core or two.
// Below kSplitUnknowns nothing is split unless the caller says so.
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/math/TwoWayParallel.h"
#include "core/math/Types.h"

namespace tinkerbox {

class LdltSubstitution {
public:
    static constexpr Index kSplitUnknowns = 2048;
    static constexpr int kPanelWidth = 8;
    static constexpr Index kRelaxedZeros = 16;

    // L: unit lower triangular, in compressed columns without its diagonal, rows ascending
    // in each column (start has unknowns + 1 entries); inverseD: 1 / D.
    void set(Index unknowns, const std::vector<Index>& start, const std::vector<std::int32_t>& row,
             const std::vector<double>& value, const VecX& inverseD);
    // The same with the split given instead of worked out: L's first sets[0] unknowns are the
    // first set, the next sets[1] the second, the rest the top (then position(j) = j). Throws
    // std::invalid_argument unless no column of one set has a row in the other.
    void set(Index unknowns, const std::vector<Index>& start, const std::vector<std::int32_t>& row,
             const std::vector<double>& value, const VecX& inverseD, const std::array<Index, 2>& sets);

    // Where L's unknown j is in solve()'s vector: its row there.
    Index position(Index j) const { return position_[static_cast<std::size_t>(j)]; }
    // Rows first .. last - 1 of the right-hand side, numbered as position() numbers them.
    using RowRange = std::function<void(Index first, Index last)>;
    // b <- (L D L^T)^-1 b, b holding 4 numbers per row (x, y, z and a 0), rows by position().
    // fill, when given, writes b's rows before the substitutions and done reads the answer's
    // after them, each row once, on the thread that substitutes it (a set's rows with that set,
    // the top's in two halves): the caller's work on b shares the substitution's two halves
    // instead of two more of its own.
    void solve(VecX& b, TwoWayParallel& parallel, const RowRange& fill = {}, const RowRange& done = {});

    // How the unknowns were split: those of the first set, of the second, and of the top.
    std::array<Index, 3> partSizes() const;
    // Set s's rows (s = 0, 1) or the top's (s = 2) are first .. last - 1, in solve()'s numbering.
    std::array<Index, 2> rows(int s) const { return {parts_[s].first, parts_[s].first + parts_[s].count}; }

    // solve() in its stages, for a caller that runs its own work between them: b's rows of a
    // set are final for forwardSet(s) once they are written, the top's for solveTop() once
    // both forwardSet() are done; set s's answer is final after backwardSet(s). The two sets'
    // stages may run at once, each on one thread.
    void forwardSet(int s, VecX& b);   // L z = b over set s
    void solveTop(VecX& b);            // the top's forward and back substitution
    void backwardSet(int s, VecX& b);  // L^T x = D^-1 z over set s

private:
    // Columns first .. first + width - 1 (in the substitution's numbering): a packed strictly
    // lower triangle of width x width values by columns, then per row one value per column;
    // the rows ascend, those in the own part (or all, in the top) before those in the top.
    struct Panel {
        std::int32_t first = 0, width = 0;
        Index rowStart = 0, rows = 0, ownRows = 0;
        Index valueStart = 0;
    };
    // One set (or the top): its unknowns are first .. first + count - 1.
    struct Part {
        Index first = 0, count = 0;
        std::vector<Panel> panels;
        std::vector<std::int32_t> rows;
        std::vector<double> values;
    };
    void assign(Index unknowns, const std::vector<Index>& start, const std::vector<std::int32_t>& row,
                const std::vector<double>& value, const VecX& inverseD, const std::vector<int>& part);
    void forward(const Part& part, double* b, double* topUpdates) const;
    void backward(const Part& part, double* b) const;

    Index unknowns_ = 0;
    std::vector<Index> position_;     // per unknown of L, its number here
    std::array<Part, 3> parts_;       // the two sets, then the top
    VecX inverseD_;                   // in this numbering
    std::array<VecX, 2> topUpdates_;  // per set, its updates of the top's rows, 4 numbers each
};

}  // namespace tinkerbox
