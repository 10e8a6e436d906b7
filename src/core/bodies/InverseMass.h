#pragma once
// The inverse mass operator W over velocity blocks (3 numbers each): diagonal for
// particles, beads and a rigid body's linear block; for a body's angular block the world
// inverse inertia R Ibody^-1 R^T (Baraff, Rigid Body Simulation, SIGGRAPH 2001 notes,
// section 2.10). Fixed particles and bodies have W = 0.
#include <cstdint>
#include <vector>

#include "core/math/Types.h"

namespace tinkerbox {

struct InverseMass {
    VecX diagonal;                   // per dof; 0 in the blocks that have a full matrix
    std::vector<std::int32_t> full;  // per block: index into fullBlocks, or -1
    std::vector<Mat3> fullBlocks;

    Index blocks() const { return static_cast<Index>(full.size()); }
    // W_b x for block b.
    Vec3 apply(Index b, const Vec3& x) const {
        const std::int32_t k = full[b];
        return k < 0 ? Vec3(block3(diagonal, b).cwiseProduct(x)) : Vec3(fullBlocks[k] * x);
    }
    void apply(const VecX& x, VecX& y) const {
        y.resize(x.size());
        for (Index b = 0; b < blocks(); ++b) block3(y, b) = apply(b, block3(x, b));
    }
};

}  // namespace tinkerbox
