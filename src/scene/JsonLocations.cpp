#include "scene/JsonLocations.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <nlohmann/json.hpp>
#include <vector>

namespace tinkerbox {

namespace {

using json = nlohmann::json;

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

// Line and column of offsets asked for in increasing order, as a parse visits them:
// each character is counted once, however many values are located.
class LineCounter {
public:
    explicit LineCounter(std::string_view text) : text_(text) {}

    TextLocation at(std::size_t offset) {
        offset = std::min(offset, text_.size());
        if (offset < offset_) return locateOffset(text_, offset);
        for (; offset_ < offset; ++offset_) {
            if (text_[offset_] == '\n') {
                ++location_.line;
                location_.column = 1;
            } else {
                ++location_.column;
            }
        }
        return location_;
    }

private:
    std::string_view text_;
    std::size_t offset_ = 0;
    TextLocation location_{1, 1};
};

// What the SAX handlers below share: where the parser is in the text, and where the token
// it just read begins. The parser calls back once a token has been read; the token starts
// at the first character after the previous one that is not white space or a separator.
class TextPosition {
public:
    TextPosition(std::string_view text, const char** furthest) : text_(text), furthest_(furthest), lines_(text) {}

protected:
    std::size_t offset() const { return static_cast<std::size_t>(*furthest_ - text_.data()); }
    void consumeToHere() { consumed_ = offset(); }

    TextLocation tokenStart() {
        std::size_t start = std::min(consumed_, text_.size());
        while (start < text_.size() && std::string_view(" \t\r\n,:").find(text_[start]) != std::string_view::npos)
            ++start;
        return lines_.at(start);
    }
    // nlohmann's position counts characters read, the last of which is the offending one.
    TextLocation errorAt(std::size_t charactersRead) { return lines_.at(charactersRead > 0 ? charactersRead - 1 : 0); }

    static std::string elementPath(const std::string& parent, std::size_t index) {
        return parent + "[" + std::to_string(index) + "]";
    }
    static std::string memberPath(const std::string& parent, const std::string& key) {
        return parent.empty() ? key : parent + "." + key;
    }

private:
    std::string_view text_;
    const char** furthest_;
    LineCounter lines_;
    std::size_t consumed_ = 0;
};

// Builds the document, refusing what the plain parser accepts but a scene must not hold.
class DocumentBuilder final : public nlohmann::json_sax<json>, private TextPosition {
public:
    DocumentBuilder(std::string_view text, const char** furthest, json& root)
        : TextPosition(text, furthest), root_(root) {}

    const std::optional<JsonTextError>& error() const { return error_; }

    bool null() override { return scalar(nullptr); }
    bool boolean(bool b) override { return scalar(b); }
    bool number_integer(number_integer_t n) override { return scalar(n); }
    bool number_unsigned(number_unsigned_t n) override { return scalar(n); }
    bool number_float(number_float_t n, const string_t&) override { return scalar(n); }
    bool string(string_t& s) override { return scalar(std::move(s)); }
    bool binary(binary_t& b) override { return scalar(json::binary(std::move(b))); }
    bool start_object(std::size_t) override { return open(json::value_t::object); }
    bool start_array(std::size_t) override { return open(json::value_t::array); }
    bool key(string_t& k) override {
        Frame& f = frames_.back();
        const auto [member, inserted] = f.value->get_ref<json::object_t&>().emplace(k, json());
        if (!inserted) {
            error_ = JsonTextError{tokenStart(), memberPath(path(), k),
                                   "duplicate key \"" + k + "\" (each key may appear once in an object)"};
            return false;
        }
        f.key = k;
        f.member = &member->second;
        consumeToHere();
        return true;
    }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        if (e.id == kNumberOverflow) error_ = JsonTextError{tokenStart(), childPath(), kOverflowMessage};
        else error_ = JsonTextError{errorAt(position), "", "malformed JSON: " + reason(e)};
        return false;
    }

private:
    // nlohmann's messages start "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    static std::string reason(const nlohmann::detail::exception& e) {
        std::string what = e.what();
        if (const std::size_t colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        return what;
    }
    static constexpr int kNumberOverflow = 406;  // nlohmann's out_of_range id for 1e999
    static constexpr const char* kOverflowMessage = "must be a finite number (it overflows a double)";

    struct Frame {
        json* value;             // the array or object being filled
        std::string key;         // of the member being read (objects)
        json* member = nullptr;  // its value
    };

    // The path of the innermost open array or object (built only for a message).
    std::string path() const {
        std::string p;
        for (std::size_t depth = 1; depth < frames_.size(); ++depth) {
            const Frame& parent = frames_[depth - 1];  // holds this container as its last element
            p = parent.value->is_array() ? elementPath(p, parent.value->size() - 1) : memberPath(p, parent.key);
        }
        return p;
    }
    std::string childPath() const {
        if (frames_.empty()) return {};
        const Frame& f = frames_.back();
        return f.value->is_array() ? elementPath(path(), f.value->size()) : memberPath(path(), f.key);
    }

    // Stores a value where the parser is, and returns it.
    json* place(json value) {
        if (frames_.empty()) {
            root_ = std::move(value);
            return &root_;
        }
        Frame& f = frames_.back();
        if (f.value->is_array()) {
            f.value->get_ref<json::array_t&>().push_back(std::move(value));
            return &f.value->back();
        }
        *f.member = std::move(value);
        return f.member;
    }

    bool scalar(json value) {
        place(std::move(value));
        consumeToHere();
        return true;
    }
    bool open(json::value_t type) {
        if (frames_.size() >= kMaxJsonDepth) {
            error_ =
                JsonTextError{tokenStart(), "",
                              "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels of arrays and objects"};
            return false;
        }
        frames_.push_back(Frame{place(json(type)), {}, nullptr});
        consumeToHere();
        return true;
    }
    bool close() {
        frames_.pop_back();
        consumeToHere();
        return true;
    }

    json& root_;
    std::vector<Frame> frames_;
    std::optional<JsonTextError> error_;
};

// Finds the value at a path: computes the path of a value only when its container lies on
// the way to the target, and stops at the target.
class PathLocator final : public nlohmann::json_sax<json>, private TextPosition {
public:
    PathLocator(std::string_view text, const char** furthest, std::string_view target)
        : TextPosition(text, furthest), target_(target) {}

    const TextLocation& found() const { return found_; }

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
        consumeToHere();
        return true;
    }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    struct Frame {
        bool array = false;
        std::size_t index = 0;
        std::string key;
        bool onTarget = false;  // its path is a prefix of the target's
        std::string path;       // kept only when onTarget
    };

    bool leadsToTarget(const std::string& path) const {
        return path.empty() ||
               (target_.starts_with(path) &&
                (target_.size() == path.size() || target_[path.size()] == '.' || target_[path.size()] == '['));
    }

    // The path of the value being read, when it is the target or leads to it.
    std::optional<std::string> pathTowardsTarget() const {
        if (frames_.empty()) return std::string();
        const Frame& f = frames_.back();
        if (!f.onTarget) return std::nullopt;
        std::string path = f.array ? elementPath(f.path, f.index) : memberPath(f.path, f.key);
        if (!leadsToTarget(path)) return std::nullopt;
        return path;
    }

    void finishValue() {
        consumeToHere();
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    }

    bool scalar() {
        if (const auto path = pathTowardsTarget()) {
            found_ = tokenStart();
            if (*path == target_) return false;
        }
        finishValue();
        return true;
    }

    bool open(bool array) {
        std::optional<std::string> path = pathTowardsTarget();
        if (path) {
            found_ = tokenStart();
            if (*path == target_) return false;
        }
        if (frames_.size() >= kMaxJsonDepth) return false;  // deeper than any document the loader reads
        frames_.push_back(Frame{array, 0, {}, path.has_value(), path.value_or(std::string())});
        consumeToHere();
        return true;
    }

    bool close() {
        frames_.pop_back();
        finishValue();
        return true;
    }

    std::string_view target_;
    std::vector<Frame> frames_;
    TextLocation found_;
};

}  // namespace

json parseJsonDocument(std::string_view text) {
    // The parser takes a NUL byte for the end of the input and would accept what precedes it.
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
        throw JsonTextError{locateOffset(text, nul), "", "malformed JSON: a NUL byte (binary data, not text)"};
    json root;
    const char* furthest = text.data();
    DocumentBuilder builder(text, &furthest, root);
    const bool parsed = json::sax_parse(CountingIterator(text.data(), &furthest),
                                        CountingIterator(text.data() + text.size(), &furthest), &builder);
    if (!parsed || builder.error()) throw builder.error().value_or(JsonTextError{{}, "", "malformed JSON"});
    return root;
}

TextLocation locateJsonPath(std::string_view text, std::string_view path) {
    const char* furthest = text.data();
    PathLocator locator(text, &furthest, path);
    json::sax_parse(CountingIterator(text.data(), &furthest), CountingIterator(text.data() + text.size(), &furthest),
                    &locator);
    return locator.found();
}

TextLocation locateOffset(std::string_view text, std::size_t offset) { return LineCounter(text).at(offset); }

}  // namespace tinkerbox
