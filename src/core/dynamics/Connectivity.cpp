#include "core/dynamics/Connectivity.h"

#include <numeric>

namespace tinkerbox {

std::vector<Index> componentLabels(const World& system) {
    // Union-find with path halving; each root is its component's lowest index.
    const Index n = system.particleCount() + system.rigidBodyCount();
    const auto node = [&](const Anchor& a) { return componentNode(system, a); };
    std::vector<Index> parent(n);
    std::iota(parent.begin(), parent.end(), Index{0});
    const auto find = [&](Index i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    const auto join = [&](Index a, Index b) {
        const Index ra = find(a), rb = find(b);
        if (ra < rb) parent[rb] = ra;
        else parent[ra] = rb;
    };
    for (const DampedSpring& spring : system.springs().springs()) join(node(spring.a), node(spring.b));
    for (const auto& c : system.constraints()) {
        const std::vector<Anchor> anchors = c->anchors();
        for (std::size_t k = 1; k < anchors.size(); ++k) join(node(anchors[0]), node(anchors[k]));
    }
    // The particles each force element joins (a cloth's triangles and hinges, a hair's
    // joints): their velocity blocks are the particles' own indices.
    std::vector<std::pair<Index, Index>> couplings;
    system.couplings(couplings);
    for (const auto& [a, b] : couplings)
        if (a < system.particleCount() && b < system.particleCount()) join(a, b);
    std::vector<Index> labels(n);
    Index next = 0;
    for (Index i = 0; i < n; ++i) {
        const Index root = find(i);
        labels[i] = root == i ? next++ : labels[root];
    }
    return labels;
}

}  // namespace tinkerbox
