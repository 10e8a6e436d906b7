#pragma once
// Runs two tasks at once: one on the calling thread, one on a helper thread that the object
// keeps for its lifetime, for kernels split into two fixed halves (the big implicit solves).
// Each half computes the same numbers whichever thread runs it and however the two
// interleave, so results do not depend on timing. When the helper has not taken the second
// task by the time the first is done (another program has the other core, or the machine has
// one), the caller runs it itself: a busy machine costs no waiting. The helper spins briefly
// for the next task (a solve hands it one every few microseconds) and then sleeps, so that an
// idle simulation costs no core.
#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>

namespace tinkerbox {

class TwoWayParallel {
public:
    TwoWayParallel();
    ~TwoWayParallel();
    TwoWayParallel(const TwoWayParallel&) = delete;
    TwoWayParallel& operator=(const TwoWayParallel&) = delete;

    // Runs first on this thread and second on the helper; returns when both are done.
    // Not reentrant: one call at a time.
    void run(const std::function<void()>& first, const std::function<void()>& second);
    // Runs task(k) for every k in [0, count), each thread taking the next k not yet taken: for
    // a few independent pieces of unequal cost. Which thread runs a piece varies; what it
    // computes must not depend on that.
    void forEach(std::int64_t count, const std::function<void(std::int64_t)>& task);

private:
    void work();

    const std::function<void()>* task_ = nullptr;
    std::atomic<unsigned> posted_{0};   // counts the tasks handed to the helper
    std::atomic<unsigned> claimed_{0};  // the last task taken, by either thread
    std::atomic<unsigned> done_{0};     // the last task the helper finished
    std::atomic<bool> stop_{false};
    bool useHelper_;      // false on a single-core machine
    std::thread helper_;  // started by the first run()
};

}  // namespace tinkerbox
