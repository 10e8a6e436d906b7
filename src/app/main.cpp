// tinkerbox: the interactive sandbox.
#include <CLI/CLI.hpp>
#include <iostream>
#include <stdexcept>

#include "app/App.h"
#include "core/integrators/Integrator.h"

int main(int argc, char** argv) {
    using namespace tinkerbox;
    AppOptions options;
    CLI::App cli{
        "Tinkerbox: build mass-spring and tinkertoy models, drag them, and compare integrators.\n"
        "Press F1 in the app for the keys."};
    cli.set_version_flag("--version", "tinkerbox 0.1.0");
    cli.add_option("scene", options.scene, "Scene file (.json) to open")->check(CLI::ExistingFile);
    std::string integrator;
    cli.add_option("--integrator", integrator, integratorNameList())
        ->check(CLI::Validator(
            [](std::string& name) {
                try {
                    integratorKind(name);
                    return std::string();
                } catch (const std::invalid_argument& e) {
                    return std::string(e.what());
                }
            },
            "INTEGRATOR"));
    cli.add_option("--screenshot", options.screenshot, "Render --frames frames, save this PNG and exit");
    cli.add_option("--video", options.video,
                   "Render --frames frames into this video (H.264 through ffmpeg; without it, numbered PNG files) "
                   "and exit");
    auto* frames =
        cli.add_option("--frames", options.frames, "Frames to render for --screenshot or --video (default 1)")
            ->check(CLI::PositiveNumber);
    cli.add_flag("--play", options.play, "Start running");
    cli.add_option("--script", options.script, "Replay an input script (see docs/app.md)")->check(CLI::ExistingFile);
    cli.add_option("--record", options.record, "Record the input to a script file");
    cli.add_option("--save-on-exit", options.saveOnExit, "Write the scene, settings included, when the app quits");
    cli.add_option("--status-file", options.statusFile,
                   "Rewrite this file after every frame with the frame number, the simulated time and what the "
                   "window shows (for scripts and tests)");
    cli.add_flag("--timing", options.timing, "At exit, print the mean simulate and draw times per frame");
    cli.add_option("--width", options.width, "Window width in pixels")->check(CLI::Range(320, 8192));
    cli.add_option("--height", options.height, "Window height in pixels")->check(CLI::Range(240, 8192));
    try {
        cli.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return cli.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "error: " << e.what() << "\n(see tinkerbox --help)\n";
        return 2;
    }
    if (frames->count() > 0 && !options.batch()) {
        std::cerr << "error: --frames needs --screenshot or --video\n(see tinkerbox --help)\n";
        return 2;
    }
    if (!integrator.empty()) options.integrator = integrator;
    try {
        App app(options);
        return app.run();
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 1;
    }
}
