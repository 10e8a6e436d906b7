#pragma once
// The elements of a force (springs, triangles, hinges: each a few particles) in two parts
// that share no particle, and a band of the rest: the two parts can add their elements'
// forces and Jacobian blocks at once, on two threads, without writing the same numbers, and
// the band adds its own after them. The parts are the first and the second half of the
// elements in their order, less the elements with a particle in both halves (the band): a
// cloth's elements are made row by row, so the band is a row or two of them. Which element
// goes where depends on the elements alone, so the sums come out the same on one thread or two.
#include <array>
#include <functional>
#include <vector>

#include "core/math/TwoWayParallel.h"
#include "core/math/Types.h"

namespace tinkerbox {

class ElementPartition {
public:
    // Below this many elements there is one part (and no band).
    static constexpr Index kSplitElements = 2048;

    // element(e) gives element e's particles (indices below particles).
    template <int N, class Element>
    void assign(Index elements, Index particles, Element&& element);

    // Runs task(e) for every element: the two parts at once on parallel (one after the other
    // without it), then the band.
    template <class Task>
    void forEach(TwoWayParallel* parallel, Task&& task) const;
    // The same with task(elements) given each part's list of elements, for a task that takes
    // them a few at a time.
    template <class Task>
    void forEachPart(TwoWayParallel* parallel, Task&& task) const;

    const std::vector<Index>& first() const { return parts_[0]; }
    const std::vector<Index>& second() const { return parts_[1]; }
    const std::vector<Index>& band() const { return parts_[2]; }

private:
    std::array<std::vector<Index>, 3> parts_;  // first, second, band
};

template <int N, class Element>
void ElementPartition::assign(Index elements, Index particles, Element&& element) {
    for (auto& part : parts_) part.clear();
    if (elements < kSplitElements) {
        for (Index e = 0; e < elements; ++e) parts_[0].push_back(e);
        return;
    }
    const Index half = elements / 2;
    std::vector<unsigned char> halves(particles, 0);  // bit 1: in a first-half element, bit 2: second
    for (Index e = 0; e < elements; ++e) {
        const std::array<Index, N> p = element(e);
        for (const Index i : p) halves[i] |= e < half ? 1 : 2;
    }
    for (Index e = 0; e < elements; ++e) {
        const std::array<Index, N> p = element(e);
        bool shared = false;
        for (const Index i : p) shared = shared || halves[i] == 3;
        parts_[shared ? 2 : e < half ? 0 : 1].push_back(e);
    }
}

template <class Task>
void ElementPartition::forEach(TwoWayParallel* parallel, Task&& task) const {
    forEachPart(parallel, [&](const std::vector<Index>& elements) {
        for (const Index e : elements) task(e);
    });
}

template <class Task>
void ElementPartition::forEachPart(TwoWayParallel* parallel, Task&& task) const {
    if (parallel && !parts_[1].empty()) parallel->run([&] { task(parts_[0]); }, [&] { task(parts_[1]); });
    else {
        task(parts_[0]);
        task(parts_[1]);
    }
    task(parts_[2]);
}

}  // namespace tinkerbox
