#pragma once
// What collision reads of a model: the state of its bodies, its planes, and which of its
// particles and bodies are joined (by a constraint or by a force's element), since joined
// ones do not collide with each other. World (dynamics/World.h) is one; collision sees
// nothing else of it, so that it sits below the world that assembles it.
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/collision/Plane.h"
#include "core/constraints/Constraint.h"
#include "core/state/ModelState.h"

namespace tinkerbox {

class CollidingModel {
public:
    virtual ~CollidingModel() = default;
    virtual const ModelState& state() const = 0;
    virtual const std::vector<Plane>& planes() const = 0;
    // Every constraint, for the anchors it joins.
    virtual const std::vector<std::unique_ptr<Constraint>>& constraints() const = 0;
    // The pairs of velocity blocks a force's element joins, in no particular order, repeats
    // kept; and a count of the changes that can change them.
    virtual void couplings(std::vector<std::pair<Index, Index>>& out) const = 0;
    virtual std::uint64_t elementsRevision() const = 0;
};

}  // namespace tinkerbox
