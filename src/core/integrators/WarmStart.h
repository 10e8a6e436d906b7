#pragma once
// The start of the implicit step's linear solve, from the solutions of the steps before it:
// extrapolated in time (equal steps) by the polynomial of degree 0, 1 or 2 through the last
// one, two or three of them,
//   x_{n+1} ~ x_n,  2 x_n - x_{n-1},  3 x_n - 3 x_{n-1} + x_{n-2}.
// The degree used is the one that would have predicted the last solution best from the ones
// before it: smooth motion takes the quadratic, a jerk (a contact, a grab) falls back to a
// lower degree for the next step. (Reusing earlier solutions for the start of a sequence of
// solves: Fischer, Projection Techniques for Iterative Solution of Ax = b with Successive
// Right-Hand Sides, Comput. Methods Appl. Mech. Engrg. 163, 1998.) CG's stopping test does not
// depend on the start (ConjugateGradient.h): a better start saves iterations, never accuracy.
#include <array>

#include "core/math/Types.h"

namespace tinkerbox {

class WarmStart {
public:
    // The start for a solve of `size` unknowns: zero without a solution of that size.
    void predict(Index size, VecX& start) const;
    // After a solve: its solution (one of another size starts the history anew).
    void record(const VecX& solution);
    int degree() const { return degree_; }
    int solutions() const { return count_; }

    // The history as numbers, for an integrator's memory: memorySize() numbers written from
    // memory[offset] on; restore reads them back from offset to the end of memory.
    Index memorySize() const;
    void save(VecX& memory, Index offset) const;
    void restore(const VecX& memory, Index offset);

private:
    std::array<VecX, 3> solutions_;  // the newest first; count_ of them
    int count_ = 0;
    int degree_ = 0;
};

}  // namespace tinkerbox
