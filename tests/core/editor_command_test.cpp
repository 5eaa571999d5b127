#include "source/editor_command.h"
#include "source/path_mapping.h"
#include "test_util.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ws;
using Args = std::vector<std::string>;

namespace {

const std::vector<std::string>& hostileNames() {
    static const std::vector<std::string> names = {
        "x; rm -rf ~",
        "$(touch pwned1)",
        "`touch pwned2`",
        "a'b\"c",
        "new\nline; touch pwned3",
        "|| touch pwned4 &",
        "-rf",
        "%l %c 100%",
        "spaces  and\ttab",
        "*",
    };
    return names;
}

// A scratch folder of its own: test::tempDir() must stay free of subfolders (other tests import it
// as a directory and expect one exact message).
std::filesystem::path scratchDir(const std::string& name) {
    struct RemovedAtExit {
        std::filesystem::path path;
        ~RemovedAtExit() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    };
    static const RemovedAtExit root{std::filesystem::temp_directory_path() / ("warpscope_editor_test_" + std::to_string(::getpid()))};
    const auto d = root.path / name;
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

} // namespace

TEST(EditorCommand, SplitQuotingRules) {
    EXPECT_EQ(*splitCommandTemplate("code -g %f:%l:%c"), (Args{"code", "-g", "%f:%l:%c"}));
    EXPECT_EQ(*splitCommandTemplate("  a   b\t c "), (Args{"a", "b", "c"}));
    EXPECT_EQ(*splitCommandTemplate("'/opt/My Editor/bin/ed' --line %l"),
              (Args{"/opt/My Editor/bin/ed", "--line", "%l"}));
    EXPECT_EQ(*splitCommandTemplate(R"(a "b \"c\" \\ \n" d)"), (Args{"a", R"(b "c" \ \n)", "d"}));
    EXPECT_EQ(*splitCommandTemplate(R"(a\ b 'x'y"z" '')"), (Args{"a b", "xyz", ""}));
    EXPECT_EQ(*splitCommandTemplate("a $(b) `c` ; d | e > f ~"),
              (Args{"a", "$(b)", "`c`", ";", "d", "|", "e", ">", "f", "~"}));
    EXPECT_TRUE(splitCommandTemplate("")->empty());
    std::string err;
    EXPECT_FALSE(splitCommandTemplate("a 'b", &err));
    EXPECT_FALSE(err.empty());
    EXPECT_FALSE(splitCommandTemplate("a \"b"));
    EXPECT_FALSE(splitCommandTemplate("a\\"));
}

TEST(EditorCommand, ExpandPlaceholders) {
    const SourceLocation loc{"/src/model.py", 42, 7};
    EXPECT_EQ(*expandEditorCommand("code -g %f:%l:%c", loc), (Args{"code", "-g", "/src/model.py:42:7"}));
    EXPECT_EQ(*expandEditorCommand("clion --line %l --column %c %f", loc),
              (Args{"clion", "--line", "42", "--column", "7", "/src/model.py"}));
    EXPECT_EQ(*expandEditorCommand("ed 100%% %x %", loc), (Args{"ed", "100%", "%x", "%"}));
    // Unknown line/column become 1.
    EXPECT_EQ(*expandEditorCommand("e +%l:%c", SourceLocation{"f", 0, 0}), (Args{"e", "+1:1"}));
    EXPECT_FALSE(expandEditorCommand("", loc));
    EXPECT_FALSE(expandEditorCommand("'' %f", loc));
}

TEST(EditorCommand, PresetsExpandToFileAndLine) {
    const SourceLocation loc{"/p/a.py", 12, 3};
    ASSERT_GE(editorPresets().size(), 12u);
    std::set<std::string> ids;
    for (const EditorPreset& p : editorPresets()) {
        EXPECT_TRUE(ids.insert(p.id).second) << p.id;
        auto args = expandEditorCommand(p.commandTemplate, loc);
        ASSERT_TRUE(args) << p.id;
        bool hasFile = false;
        for (const auto& a : *args)
            hasFile = hasFile || a.find("/p/a.py") != std::string::npos;
        EXPECT_TRUE(hasFile) << p.id;
    }
    for (const char* id : {"system", "vscode", "vscodium", "cursor", "clion", "pycharm", "qtcreator",
                           "sublime", "kate", "gedit", "emacs", "vim", "nvim"})
        EXPECT_NE(findEditorPreset(id), nullptr) << id;
    EXPECT_EQ(findEditorPreset("nope"), nullptr);
    EXPECT_EQ(*expandEditorCommand(findEditorPreset("vscode")->commandTemplate, loc),
              (Args{"code", "-g", "/p/a.py:12:3"}));
}

// Whatever a trace names as file stays inside the one argument it was placed in.
TEST(EditorCommand, HostileFileNamesStaySingleArguments) {
    for (const std::string& name : hostileNames()) {
        const std::string file = "/tmp/d/" + name;
        auto args = expandEditorCommand("code -g %f:%l:%c", SourceLocation{file, 5, 2});
        ASSERT_TRUE(args) << name;
        EXPECT_EQ(*args, (Args{"code", "-g", file + ":5:2"})) << name;
        args = expandEditorCommand("kate --line %l %f", SourceLocation{file, 5, 0});
        EXPECT_EQ(*args, (Args{"kate", "--line", "5", file})) << name;
    }
    // A relative name starting with '-' cannot become an option.
    EXPECT_EQ(*expandEditorCommand("vim %f", SourceLocation{"-c:!touch x", 1, 1}),
              (Args{"vim", "./-c:!touch x"}));
}

// Actually runs `touch <hostile path>` through the argument-vector path: exactly the oddly named
// files appear and none of the embedded commands ran.
TEST(EditorCommand, LaunchWithHostileNamesRunsNothingElse) {
    const auto dir = scratchDir("launch");
    std::set<std::string> expected;
    for (const std::string& name : hostileNames()) {
        auto args = expandEditorCommand("touch %f", SourceLocation{(dir / name).string(), 1, 1});
        ASSERT_TRUE(args);
        ASSERT_EQ(args->size(), 2u);
        EXPECT_EQ(runCommandAndWait(*args, dir.string()), 0) << name;
        expected.insert(name);
    }
    std::set<std::string> found;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        found.insert(e.path().filename().string());
    EXPECT_EQ(found, expected);
    EXPECT_EQ(runCommandAndWait({"/nonexistent/warpscope-no-such-editor"}), -1);
    EXPECT_EQ(runCommandAndWait({"false"}), 1);
}

TEST(PathMapping, PrefixRulesInOrder) {
    const std::vector<PathMappingRule> rules = {{"/workspace/proj", "~/src/proj"},
                                                {"/workspace", "/mnt/ws/"}};
    EXPECT_EQ(candidateSourcePaths("/workspace/proj/a/b.py", rules, "/home/u"),
              (Args{"/home/u/src/proj/a/b.py", "/mnt/ws/proj/a/b.py", "/workspace/proj/a/b.py"}));
    // Whole components only.
    EXPECT_EQ(candidateSourcePaths("/workspace/project/x.py", rules, "/home/u"),
              (Args{"/mnt/ws/project/x.py", "/workspace/project/x.py"}));
    EXPECT_EQ(candidateSourcePaths("/other/x.py", rules, "/home/u"), (Args{"/other/x.py"}));
    EXPECT_EQ(candidateSourcePaths("/workspace/proj/", {{"/workspace/proj/", "/x"}}, "/h"),
              (Args{"/x/", "/workspace/proj/"}));
    EXPECT_EQ(expandHome("~", "/h"), "/h");
    EXPECT_EQ(expandHome("~/a", "/h"), "/h/a");
    EXPECT_EQ(expandHome("~bob/a", "/h"), "~bob/a");
}

TEST(PathMapping, FirstExistingCandidateWins) {
    const auto root = scratchDir("mapping");
    std::filesystem::create_directories(root / "home/src/proj/m");
    std::filesystem::create_directories(root / "second/proj/m");
    std::ofstream(root / "home/src/proj/m/model.py") << "x = 1\n";
    std::ofstream(root / "second/proj/m/model.py") << "x = 2\n";
    std::ofstream(root / "second/proj/m/only2.py") << "y\n";
    const std::string home = (root / "home").string();
    const std::vector<PathMappingRule> rules = {{"/workspace/proj", "~/src/proj"},
                                                {"/workspace", (root / "second").string()}};
    EXPECT_EQ(resolveSourcePath("/workspace/proj/m/model.py", rules, home),
              (root / "home/src/proj/m/model.py").string());
    EXPECT_EQ(resolveSourcePath("/workspace/proj/m/only2.py", rules, home),
              (root / "second/proj/m/only2.py").string());
    EXPECT_FALSE(resolveSourcePath("/workspace/proj/m/none.py", rules, home));
    // A directory is not a source file.
    EXPECT_FALSE(resolveSourcePath("/workspace/proj/m", rules, home));
    // No rule: the recorded path itself.
    EXPECT_EQ(resolveSourcePath((root / "second/proj/m/model.py").string(), {}, home),
              (root / "second/proj/m/model.py").string());
}

TEST(PathMapping, LearnFromLocatedFile) {
    auto r = learnPathMapping("/workspace/proj/src/a.py", "/home/u/src/proj/src/a.py");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->from, "/workspace");
    EXPECT_EQ(r->to, "/home/u/src");
    EXPECT_EQ(candidateSourcePaths("/workspace/proj/src/a.py", {*r}, "/h").front(),
              "/home/u/src/proj/src/a.py");
    r = learnPathMapping("/build/x/model.py", "/home/u/other/model.py");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->from, "/build/x");
    EXPECT_EQ(r->to, "/home/u/other");
    EXPECT_FALSE(learnPathMapping("/a/b.py", "/a/b.py"));
}
