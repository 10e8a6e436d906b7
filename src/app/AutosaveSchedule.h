#pragma once
// When the app writes its autosave: soon after every edit, once the edits pause for kQuiet
// but never later than kLatest after the first one not yet saved, so that a crash loses at
// most about a second of work; and every kPeriod while the scene has unsaved changes, since
// a running model changes without edits. Times are seconds on any steady clock.
namespace tinkerbox {

class AutosaveSchedule {
public:
    static constexpr double kQuiet = 0.5, kLatest = 1.0, kPeriod = 5.0;

    // Once per frame: the editor's revision (Editor::revision) and unsaved flag.
    void observe(long revision, bool modified, double now);
    bool due(double now) const;
    void writing(double now);                         // a write of the observed revision starts
    bool current() const { return saved_ == seen_; }  // the autosave has every edit observed

private:
    long seen_ = -1, saved_ = -1;
    bool modified_ = false;
    double firstUnsaved_ = 0.0, lastEdit_ = 0.0, lastWrite_ = 0.0;
};

}  // namespace tinkerbox
