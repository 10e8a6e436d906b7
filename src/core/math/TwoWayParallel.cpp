#include "core/math/TwoWayParallel.h"

namespace tinkerbox {

namespace {
// About 20 us of polling before sleeping: longer than the gap between two sweeps of a
// solve, far shorter than the gap between two frames.
constexpr int kSpins = 20000;

template <class Done>
void spinThenWait(const std::atomic<unsigned>& counter, unsigned seen, Done&& done) {
    for (int k = 0; k < kSpins; ++k)
        if (done()) return;
    while (!done()) counter.wait(seen, std::memory_order_acquire);
}
}  // namespace

TwoWayParallel::TwoWayParallel() : useHelper_(std::thread::hardware_concurrency() >= 2) {}

TwoWayParallel::~TwoWayParallel() {
    if (!helper_.joinable()) return;
    stop_.store(true, std::memory_order_release);
    posted_.fetch_add(1, std::memory_order_release);
    posted_.notify_one();
    helper_.join();
}

void TwoWayParallel::run(const std::function<void()>& first, const std::function<void()>& second) {
    if (!useHelper_) {
        first();
        second();
        return;
    }
    if (!helper_.joinable()) helper_ = std::thread([this] { work(); });  // on first use
    task_ = &second;
    const unsigned ticket = posted_.fetch_add(1, std::memory_order_release) + 1;
    posted_.notify_one();
    first();
    // Not yet taken (the helper has no core just now): do it here rather than wait.
    unsigned expected = ticket - 1;
    if (claimed_.compare_exchange_strong(expected, ticket, std::memory_order_acq_rel)) {
        second();
        return;
    }
    spinThenWait(done_, done_.load(std::memory_order_acquire),
                 [&] { return done_.load(std::memory_order_acquire) == ticket; });
}

void TwoWayParallel::work() {
    unsigned seen = 0;
    for (;;) {
        spinThenWait(posted_, seen, [&] { return posted_.load(std::memory_order_acquire) != seen; });
        seen = posted_.load(std::memory_order_acquire);
        if (stop_.load(std::memory_order_acquire)) return;
        // The caller posts a task only once the last one is finished, so the latest is the
        // only one open; whoever claims it first runs it.
        unsigned expected = seen - 1;
        if (!claimed_.compare_exchange_strong(expected, seen, std::memory_order_acq_rel)) continue;
        (*task_)();
        done_.store(seen, std::memory_order_release);
        done_.notify_one();
    }
}

}  // namespace tinkerbox
