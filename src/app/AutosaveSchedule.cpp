#include "app/AutosaveSchedule.h"

namespace tinkerbox {

void AutosaveSchedule::observe(long revision, bool modified, double now) {
    modified_ = modified;
    if (!modified) {  // the scene is in its file (or untouched): nothing to keep
        seen_ = saved_ = revision;
        return;
    }
    if (revision == seen_) return;
    if (current()) firstUnsaved_ = now;
    lastEdit_ = now;
    seen_ = revision;
}

bool AutosaveSchedule::due(double now) const {
    if (!modified_) return false;
    if (!current()) return now - lastEdit_ >= kQuiet || now - firstUnsaved_ >= kLatest;
    return now - lastWrite_ >= kPeriod;
}

void AutosaveSchedule::writing(double now) {
    saved_ = seen_;
    lastWrite_ = now;
}

}  // namespace tinkerbox
