#include "scene/JsonLocations.h"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

namespace tinkerbox {

namespace {

// A char iterator that tells how far the parser has read.
class CountingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    CountingIterator(const char* p, const char** furthest) : p_(p), furthest_(furthest) {}
    reference operator*() const { return *p_; }
    CountingIterator& operator++() {
        ++p_;
        *furthest_ = std::max(*furthest_, p_);
        return *this;
    }
    CountingIterator operator++(int) {
        CountingIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const CountingIterator& o) const { return p_ == o.p_; }
    bool operator!=(const CountingIterator& o) const { return p_ != o.p_; }

private:
    const char* p_;
    const char** furthest_;
};

// Records the start of every value. The parser calls back once a token has been
// read; the value starts at the first character after the previous token that is
// not white space or a separator.
class LocationRecorder final : public nlohmann::json_sax<nlohmann::json> {
public:
    LocationRecorder(std::string_view text, const char** furthest,
                     std::unordered_map<std::string, TextLocation>& out, std::optional<JsonLocations::Failure>& failure)
        : text_(text), furthest_(furthest), out_(out), failure_(failure) {}

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t&) override { return scalar(); }
    bool string(string_t&) override { return scalar(); }
    bool binary(binary_t&) override { return scalar(); }
    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool key(string_t& k) override {
        frames_.back().key = k;
        consumed_ = offset();
        return true;
    }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
        failure_ = JsonLocations::Failure{childPath(), JsonLocations::locate(text_, position)};
        return false;
    }

private:
    struct Frame {
        bool array = false;
        std::size_t index = 0;
        std::string key;
        std::string path;
    };

    std::size_t offset() const { return static_cast<std::size_t>(*furthest_ - text_.data()); }

    std::string childPath() const {
        if (frames_.empty()) return {};
        const Frame& f = frames_.back();
        if (f.array) return f.path + "[" + std::to_string(f.index) + "]";
        return f.path.empty() ? f.key : f.path + "." + f.key;
    }

    // Where the value that was just read begins.
    void record(const std::string& path) {
        std::size_t start = std::min(consumed_, text_.size());
        while (start < text_.size() && std::string_view(" \t\r\n,:").find(text_[start]) != std::string_view::npos)
            ++start;
        out_.emplace(path, JsonLocations::locate(text_, start));
    }

    void finishValue() {
        consumed_ = offset();
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    }

    bool scalar() {
        record(childPath());
        finishValue();
        return true;
    }

    bool open(bool array) {
        std::string path = childPath();
        record(path);
        frames_.push_back(Frame{array, 0, {}, std::move(path)});
        consumed_ = offset();
        return true;
    }

    bool close() {
        frames_.pop_back();
        finishValue();
        return true;
    }

    std::string_view text_;
    const char** furthest_;
    std::unordered_map<std::string, TextLocation>& out_;
    std::optional<JsonLocations::Failure>& failure_;
    std::vector<Frame> frames_;
    std::size_t consumed_ = 0;
};

}  // namespace

JsonLocations::JsonLocations(std::string_view text) {
    const char* furthest = text.data();
    LocationRecorder recorder(text, &furthest, locations_, failure_);
    nlohmann::json::sax_parse(CountingIterator(text.data(), &furthest),
                              CountingIterator(text.data() + text.size(), &furthest), &recorder);
}

TextLocation JsonLocations::find(std::string path) const {
    while (true) {
        if (const auto it = locations_.find(path); it != locations_.end()) return it->second;
        if (path.empty()) return {};
        const std::size_t cut = path.find_last_of(".[");
        path = cut == std::string::npos ? std::string() : path.substr(0, cut);
    }
}

TextLocation JsonLocations::locate(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    TextLocation loc{1, 1};
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++loc.line;
            loc.column = 1;
        } else {
            ++loc.column;
        }
    }
    return loc;
}

}  // namespace tinkerbox
