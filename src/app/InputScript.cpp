#include "app/InputScript.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace tinkerbox {

namespace {

const std::map<std::string, int>& namedKeys() {
    static const std::map<std::string, int> keys = {
        {"SPACE", GLFW_KEY_SPACE},   {"ESCAPE", GLFW_KEY_ESCAPE},
        {"ENTER", GLFW_KEY_ENTER},   {"BACKSPACE", GLFW_KEY_BACKSPACE},
        {"DELETE", GLFW_KEY_DELETE}, {"TAB", GLFW_KEY_TAB},
        {"PERIOD", GLFW_KEY_PERIOD}, {"LEFT", GLFW_KEY_LEFT},
        {"RIGHT", GLFW_KEY_RIGHT},   {"UP", GLFW_KEY_UP},
        {"DOWN", GLFW_KEY_DOWN},     {"MINUS", GLFW_KEY_MINUS},
        {"EQUAL", GLFW_KEY_EQUAL},   {"HOME", GLFW_KEY_HOME},
        {"F1", GLFW_KEY_F1},         {"F2", GLFW_KEY_F2},
        {"F3", GLFW_KEY_F3},         {"F4", GLFW_KEY_F4},
        {"F5", GLFW_KEY_F5},         {"F6", GLFW_KEY_F6},
        {"F7", GLFW_KEY_F7},         {"F8", GLFW_KEY_F8},
        {"F9", GLFW_KEY_F9},         {"F10", GLFW_KEY_F10},
        {"F11", GLFW_KEY_F11},       {"F12", GLFW_KEY_F12},
    };
    return keys;
}

int parseMods(const std::string& text) {
    int mods = 0;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, '+');) {
        if (part == "shift") mods |= GLFW_MOD_SHIFT;
        else if (part == "ctrl") mods |= GLFW_MOD_CONTROL;
        else if (part == "alt") mods |= GLFW_MOD_ALT;
        else throw std::invalid_argument("unknown modifier '" + part + "' (shift, ctrl, alt)");
    }
    return mods;
}

std::string modsText(int mods) {
    std::string text;
    if (mods & GLFW_MOD_SHIFT) text += "shift";
    if (mods & GLFW_MOD_CONTROL) text += std::string(text.empty() ? "" : "+") + "ctrl";
    if (mods & GLFW_MOD_ALT) text += std::string(text.empty() ? "" : "+") + "alt";
    return text;
}

int parseAction(const std::string& text) {
    if (text == "press") return GLFW_PRESS;
    if (text == "release") return GLFW_RELEASE;
    if (text == "repeat") return GLFW_REPEAT;
    throw std::invalid_argument("unknown action '" + text + "' (press, release, repeat)");
}

std::string actionText(int action) {
    return action == GLFW_PRESS ? "press" : action == GLFW_RELEASE ? "release" : "repeat";
}

int parseButton(const std::string& text) {
    if (text == "left") return GLFW_MOUSE_BUTTON_LEFT;
    if (text == "right") return GLFW_MOUSE_BUTTON_RIGHT;
    if (text == "middle") return GLFW_MOUSE_BUTTON_MIDDLE;
    throw std::invalid_argument("unknown button '" + text + "' (left, right, middle)");
}

std::string buttonText(int button) {
    return button == GLFW_MOUSE_BUTTON_RIGHT ? "right" : button == GLFW_MOUSE_BUTTON_MIDDLE ? "middle" : "left";
}

}  // namespace

int keyFromName(const std::string& name) {
    std::string upper = name;
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    if (upper.size() == 1 && std::isalnum(static_cast<unsigned char>(upper[0])))
        return upper[0];  // GLFW keys are ASCII
    const auto it = namedKeys().find(upper);
    return it == namedKeys().end() ? -1 : it->second;
}

std::string keyName(int key) {
    if ((key >= 'A' && key <= 'Z') || (key >= '0' && key <= '9')) return std::string(1, static_cast<char>(key));
    for (const auto& [name, code] : namedKeys())
        if (code == key) return name;
    return std::to_string(key);
}

std::vector<ScriptedEvent> parseInputScript(const std::string& text, const std::string& source) {
    std::vector<ScriptedEvent> events;
    std::istringstream lines(text);
    int lineNumber = 0;
    for (std::string line; std::getline(lines, line);) {
        ++lineNumber;
        std::istringstream in(line);
        std::string first;
        if (!(in >> first) || first[0] == '#') continue;
        try {
            ScriptedEvent e;
            std::size_t used = 0;
            e.frame = std::stol(first, &used);
            if (used != first.size() || e.frame < 0) throw std::invalid_argument("a frame number comes first");
            std::string kind;
            in >> kind;
            std::vector<std::string> args;
            for (std::string a; in >> a;) args.push_back(a);
            const auto need = [&](std::size_t n) {
                if (args.size() < n)
                    throw std::invalid_argument("'" + kind + "' needs " + std::to_string(n) + " arguments");
            };
            InputEvent& ev = e.event;
            if (kind == "key") {
                need(1);
                ev.type = InputEvent::Type::Key;
                ev.key = keyFromName(args[0]);
                if (ev.key < 0) throw std::invalid_argument("unknown key '" + args[0] + "'");
                ev.mods = args.size() > 2 ? parseMods(args[2]) : 0;
                if (args.size() > 1 && (args[1] == "press" || args[1] == "release" || args[1] == "repeat")) {
                    ev.action = parseAction(args[1]);
                } else {  // "key K [mods]": a press, and a release one frame later
                    if (args.size() > 1) ev.mods = parseMods(args[1]);
                    ev.action = GLFW_PRESS;
                    ScriptedEvent release = e;
                    release.frame += 1;
                    release.event.action = GLFW_RELEASE;
                    events.push_back(e);
                    events.push_back(release);
                    continue;
                }
            } else if (kind == "char") {
                need(1);
                ev.type = InputEvent::Type::Char;
                ev.codepoint = static_cast<unsigned>(std::stoul(args[0]));
            } else if (kind == "move") {
                need(2);
                ev.type = InputEvent::Type::CursorPos;
                ev.x = std::stod(args[0]);
                ev.y = std::stod(args[1]);
            } else if (kind == "button") {
                need(2);
                ev.type = InputEvent::Type::MouseButton;
                ev.key = parseButton(args[0]);
                ev.action = parseAction(args[1]);
                ev.mods = args.size() > 2 ? parseMods(args[2]) : 0;
            } else if (kind == "scroll") {
                need(2);
                ev.type = InputEvent::Type::Scroll;
                ev.x = std::stod(args[0]);
                ev.y = std::stod(args[1]);
            } else if (kind == "drop" || kind == "screenshot") {
                need(1);
                ev.type = kind == "drop" ? InputEvent::Type::Drop : InputEvent::Type::Screenshot;
                // The rest of the line: a path may hold spaces.
                std::string path = line.substr(line.find(kind) + kind.size());
                path.erase(0, path.find_first_not_of(" \t"));
                ev.paths = {path};
            } else {
                throw std::invalid_argument("unknown event '" + kind +
                                            "' (key, char, move, button, scroll, drop, screenshot)");
            }
            events.push_back(e);
        } catch (const std::exception& ex) {
            throw std::runtime_error(source + ":" + std::to_string(lineNumber) + ": " + ex.what());
        }
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const ScriptedEvent& a, const ScriptedEvent& b) { return a.frame < b.frame; });
    return events;
}

std::vector<ScriptedEvent> loadInputScript(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error(file.string() + ": cannot open the input script");
    std::ostringstream text;
    text << in.rdbuf();
    return parseInputScript(text.str(), file.string());
}

std::string formatScriptedEvent(const ScriptedEvent& e) {
    std::ostringstream out;
    out << e.frame << ' ';
    const InputEvent& ev = e.event;
    switch (ev.type) {
        case InputEvent::Type::Key:
            out << "key " << keyName(ev.key) << ' ' << actionText(ev.action);
            if (ev.mods) out << ' ' << modsText(ev.mods);
            break;
        case InputEvent::Type::Char: out << "char " << ev.codepoint; break;
        case InputEvent::Type::CursorPos: out << "move " << ev.x << ' ' << ev.y; break;
        case InputEvent::Type::MouseButton:
            out << "button " << buttonText(ev.key) << ' ' << actionText(ev.action);
            if (ev.mods) out << ' ' << modsText(ev.mods);
            break;
        case InputEvent::Type::Scroll: out << "scroll " << ev.x << ' ' << ev.y; break;
        case InputEvent::Type::Drop: out << "drop " << (ev.paths.empty() ? "" : ev.paths.front()); break;
        case InputEvent::Type::Screenshot: out << "screenshot " << (ev.paths.empty() ? "" : ev.paths.front()); break;
    }
    return out.str();
}

}  // namespace tinkerbox
