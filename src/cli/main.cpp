// tinkerbox-sim: the headless runner, validator and benchmark.
#include <CLI/CLI.hpp>
#include <iostream>
#include <stdexcept>

#include "cli/Bench.h"
#include "cli/CompareCommand.h"
#include "cli/RunCommand.h"
#include "core/contact/ContactModel.h"
#include "core/integrators/Integrator.h"
#include "scene/BenchmarkScenes.h"
#include "scene/ExampleScenes.h"
#include "scene/SceneJson.h"

namespace {

using namespace tinkerbox;

// The text of an option for p: a number in its range, or true or false.
template <class Settings>
double parseParameter(const Parameter<Settings>& p, const std::string& text) {
    const std::string option = "--" + std::string(p.option);
    double value = 0.0;
    if (p.type == ParameterType::Flag) {
        if (text == "true" || text == "1") value = 1.0;
        else if (text != "false" && text != "0")
            throw CLI::ValidationError(option, "expected true or false, got '" + text + "'");
    } else {
        std::size_t used = 0;
        try {
            value = std::stod(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != text.size() || text.empty())
            throw CLI::ValidationError(option, "expected a number, got '" + text + "'");
    }
    if (const std::string why = p.rangeError(value); !why.empty()) throw CLI::ValidationError(option, why);
    return value;
}

// Every kind's own settings as options of cmd (--cg-tolerance, --oba-freezing, ...): each
// checks its range and hands its value to take.
template <class Kind, class Default, class Take>
void addParameterOptions(CLI::App* cmd, std::span<const Kind* const> kinds, Default defaultText, Take take) {
    for (const Kind* kind : kinds)
        for (const auto& p : kind->parameters) {
            const std::string range =
                p.type == ParameterType::Flag ? "true or false" : p.valueText(p.min) + " to " + p.valueText(p.max);
            cmd->add_option_function<std::string>(
                   "--" + std::string(p.option),
                   [kind, &p, take](const std::string& text) { take(*kind, p, parseParameter(p, text)); },
                   std::string(kind->name) + ": " + std::string(p.help) + " " + range + " (default: " + defaultText(p) +
                       ")")
                ->type_name(p.type == ParameterType::Flag    ? "BOOL"
                            : p.type == ParameterType::Count ? "INT"
                                                             : "NUMBER");
        }
}

// A name the registry knows; else its own error, which lists the choices.
template <class Lookup>
std::string knownKind(Lookup lookup, const std::string& name) {
    try {
        lookup(name);
        return {};
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
}

const CLI::Validator kIntegratorName([](std::string& name) { return knownKind(integratorKind, name); }, "INTEGRATOR",
                                     "integrator");

const CLI::Validator kContactModelName([](std::string& name) { return knownKind(contactModelKind, name); }, "MODEL",
                                       "contact model");

// A built-in example, or a benchmark scene (to open in the app and watch what bench measures).
int exportExample(const std::string& name, const std::string& out) {
    const std::optional<Scene> scene = makeBuiltInScene(name);
    if (!scene) {
        std::cerr << "error: no example or benchmark scene '" << name << "' (tinkerbox-sim examples lists them)\n";
        return 1;
    }
    if (out.empty()) {
        std::cout << serializeScene(*scene);
        return 0;
    }
    try {
        saveScene(*scene, out);
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "tinkerbox-sim: run, check and benchmark Tinkerbox scenes without a window.\n"
        "Integrators: " +
        integratorNameList() + "\nContact models: " + contactModelNameList()};
    app.require_subcommand(1);
    app.set_version_flag("--version", "tinkerbox-sim 0.1.0");

    RunOptions run;
    CLI::App* runCmd =
        app.add_subcommand("run", "Simulate a scene and write CSV (t, energies, constraint error, positions)");
    runCmd->add_option("scene", run.scene, "Scene file (.json)")->required()->check(CLI::ExistingFile);
    runCmd->add_option("--integrator", run.integrator, "Integrator: " + integratorNameList())->check(kIntegratorName);
    runCmd
        ->add_option("--contact", run.contactModel,
                     "Contact model: " + contactModelNameList() + " (default: the scene's)")
        ->check(kContactModelName);
    runCmd
        ->add_option("--self-collision", run.selfCollision,
                     "Particles collide with each other as spheres of this diameter in metres, except those an "
                     "element or a constraint joins; 0: not at all (default: the scene's)")
        ->check(CLI::Range(0.0, ContactModelSettings::kMaxSelfCollisionThickness));
    runCmd->add_option("--dt", run.dt, "Frame time step in seconds (default: the scene's)")->check(CLI::PositiveNumber);
    runCmd->add_option("--substeps", run.substeps, "Integrator steps per frame (default: the scene's)")
        ->check(CLI::Range(1, SimulationSettings::kMaxSubsteps));
    const auto theScenes = [](const auto&) { return std::string("the scene's"); };
    addParameterOptions(runCmd, integratorKinds(), theScenes,
                        [&run](const IntegratorKind& kind, const IntegratorParameter& p, double value) {
                            run.integratorParameters.push_back({&kind, &p, value});
                        });
    addParameterOptions(runCmd, contactModelKinds(), theScenes,
                        [&run](const ContactModelKind& kind, const ContactModelParameter& p, double value) {
                            run.contactModelParameters.push_back({&kind, &p, value});
                        });
    runCmd
        ->add_option("--constraint-tolerance", run.constraintTolerance,
                     "Constraint multipliers' CG relative residual, every integrator (default: the scene's, else as "
                     "tight as the integrator needs)")
        ->check(CLI::PositiveNumber);
    auto* duration = runCmd
                         ->add_option("--duration", run.duration,
                                      "Simulated seconds (default 10); a last, shorter frame ends the run there")
                         ->check(CLI::PositiveNumber);
    auto* steps = runCmd->add_option("--steps", run.steps, "Number of frames of dt")->check(CLI::PositiveNumber);
    duration->excludes(steps);
    runCmd->add_option("--out", run.out, "CSV file (default: standard output)");
    runCmd->add_option("--every", run.every, "Write a row every K frames (default 1)")->check(CLI::PositiveNumber);
    runCmd->add_option("--step-log", run.stepLog, "Write every integrator step size as CSV t,h (adaptive's own steps)");

    CompareOptions compare;
    CLI::App* compareCmd =
        app.add_subcommand("compare",
                           "Run a scene under several integrators at once; CSV, one row per integrator (energy drift, "
                           "constraint error, position error against a reference at 16 times smaller steps)");
    compareCmd->add_option("scene", compare.scene, "Scene file (.json)")->required()->check(CLI::ExistingFile);
    compareCmd
        ->add_option(
            "--integrator", compare.integrators,
            "Integrator to compare (repeatable; default: the scene's \"compare\" list): " + integratorNameList())
        ->check(kIntegratorName);
    compareCmd
        ->add_option("--reference", compare.reference,
                     "The finest run: this integrator at 16 times its substeps in the scene (default rk4)")
        ->check(kIntegratorName);
    compareCmd
        ->add_option("--contact", compare.contactModel,
                     "Contact model: " + contactModelNameList() + " (default: the scene's)")
        ->check(kContactModelName);
    compareCmd->add_option("--dt", compare.dt, "Frame time step in seconds (default: the scene's)")
        ->check(CLI::PositiveNumber);
    compareCmd
        ->add_option("--substeps", compare.substeps,
                     "Integrator steps per frame, every integrator (default: the scene's)")
        ->check(CLI::Range(1, SimulationSettings::kMaxSubsteps / kReferenceRefinement));
    auto* compareDuration = compareCmd
                                ->add_option("--duration", compare.duration,
                                             "Simulated seconds (default 10); a last, shorter frame ends the run there")
                                ->check(CLI::PositiveNumber);
    auto* compareSteps =
        compareCmd->add_option("--steps", compare.steps, "Number of frames of dt")->check(CLI::PositiveNumber);
    compareDuration->excludes(compareSteps);
    compareCmd->add_option("--out", compare.out, "CSV file (default: standard output)");
    compareCmd->add_option("--plot", compare.plot,
                           "PNG of total energy, position error and constraint error over time");

    std::string validateFile;
    CLI::App* validateCmd = app.add_subcommand("validate", "Check a scene file: a one-line summary, or the error");
    validateCmd->add_option("scene", validateFile, "Scene file (.json)")->required();

    BenchOptions bench;
    CLI::App* benchCmd = app.add_subcommand("bench", "Benchmark the built-in scenes with each integrator (CSV)");
    benchCmd->add_option("--scene", bench.scenes, "Benchmark scene (repeatable; default all)")
        ->check(CLI::IsMember(benchmarkSceneNames()));
    benchCmd->add_option("--integrator", bench.integrators, "Integrator (repeatable; default all)")
        ->check(kIntegratorName);
    benchCmd->add_option("--contact", bench.contactModels, "Contact model (repeatable; default all)")
        ->check(kContactModelName);
    benchCmd->add_option("--oba-freezing", bench.obaFreezing,
                         "oba: with freezing (true) or without (false), repeatable (default: both)");
    benchCmd->add_option("--oba-hop-fix", bench.obaHopFix, "oba: the hop fix, true or false (default true)");
    addParameterOptions(
        benchCmd, integratorKinds(), [](const IntegratorParameter& p) { return p.valueText(p.get({})); },
        [&bench](const IntegratorKind&, const IntegratorParameter& p, double value) { p.set(bench.solver, value); });
    benchCmd
        ->add_option("--seconds", bench.seconds,
                     "Wall-time cap per case; each is timed over its first simulated second (default 2)")
        ->check(CLI::PositiveNumber);

    CLI::App* examplesCmd = app.add_subcommand("examples", "List the built-in example and benchmark scenes");
    std::string exampleName, exampleOut;
    CLI::App* exampleCmd = app.add_subcommand("example", "Write a built-in example or benchmark scene as JSON");
    exampleCmd->add_option("name", exampleName, "Example name (see: tinkerbox-sim examples)")->required();
    exampleCmd->add_option("--out,-o", exampleOut, "File to write (default: standard output)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "error: " << e.what() << "\n(see tinkerbox-sim --help)\n";
        return 2;
    }

    if (*runCmd) return runScene(run);
    if (*validateCmd) return validateScene(validateFile);
    if (*compareCmd) return compareIntegrators(compare);
    if (*benchCmd) return runBench(bench);
    if (*examplesCmd) {
        for (const ExampleScene& e : exampleScenes()) std::cout << e.category << '\t' << e.name << '\n';
        for (const std::string& name : benchmarkSceneNames()) std::cout << "Benchmark\t" << name << '\n';
        return 0;
    }
    if (*exampleCmd) return exportExample(exampleName, exampleOut);
    return 2;
}
