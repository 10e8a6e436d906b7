#include "core/dynamics/Connectivity.h"

#include <numeric>

namespace tinkerbox {

std::vector<Index> componentLabels(const ParticleSystem& system) {
    // Union-find with path halving; each root is its component's lowest index.
    const Index n = system.particleCount();
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
    for (const DampedSpring& spring : system.springs().springs()) join(spring.a, spring.b);
    for (const auto& c : system.constraints()) {
        const std::vector<Index> ps = c->particles();
        for (std::size_t k = 1; k < ps.size(); ++k) join(ps[0], ps[k]);
    }
    std::vector<Index> labels(n);
    Index next = 0;
    for (Index i = 0; i < n; ++i) {
        const Index root = find(i);
        labels[i] = root == i ? next++ : labels[root];
    }
    return labels;
}

}  // namespace tinkerbox
