#include "new_capture_dialog.h"

#include "format/activitylist.h"
#include "launch/capturesetup.h"
#include "launch/launcher.h"
#include "launch/remotecapture.h"
#include "launch/stacksymbolizer.h"
#include "launch/streamprogress.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <csignal>
#include <optional>

namespace ws {

namespace {

constexpr int kPollMs = 250;
constexpr int kStopGraceMs = 5000;
constexpr int kMaxRecentPrograms = 10;
// A target that ends this soon with a failure status never got as far as CUDA.
constexpr qint64 kExitedAtOnceMs = 2000;

std::string local(const QString& s) { return QFile::encodeName(s).toStdString(); }

} // namespace

NewCaptureDialog::NewCaptureDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("New Capture"));
    setObjectName(QStringLiteral("newCaptureDialog"));

    m_program = new QComboBox(this);
    m_program->setEditable(true);
    m_program->setObjectName(QStringLiteral("program"));
    m_program->setToolTip(tr("The program to run, found in PATH like a shell would (never run through a shell)"));
    auto* browseProgram = new QToolButton(this);
    browseProgram->setText(tr("Browse…"));
    connect(browseProgram, &QToolButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Program to Capture"));
        if (!file.isEmpty())
            m_program->setCurrentText(file);
    });
    auto* programRow = new QHBoxLayout;
    programRow->addWidget(m_program, 1);
    programRow->addWidget(browseProgram);

    m_arguments = new QLineEdit(this);
    m_arguments->setObjectName(QStringLiteral("arguments"));
    m_arguments->setPlaceholderText(tr("e.g. train.py --epochs 1 (quote arguments with spaces)"));

    m_workingDir = new QLineEdit(this);
    m_workingDir->setObjectName(QStringLiteral("workingDirectory"));
    m_workingDir->setPlaceholderText(tr("current directory"));
    auto* browseDir = new QToolButton(this);
    browseDir->setText(tr("Browse…"));
    connect(browseDir, &QToolButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Working Directory"), m_workingDir->text());
        if (!dir.isEmpty())
            m_workingDir->setText(dir);
    });
    auto* dirRow = new QHBoxLayout;
    dirRow->addWidget(m_workingDir, 1);
    dirRow->addWidget(browseDir);

    m_environment = new QPlainTextEdit(this);
    m_environment->setObjectName(QStringLiteral("environment"));
    m_environment->setPlaceholderText(tr("NAME=VALUE, one per line (added to the inherited environment)"));
    m_environment->setMaximumHeight(80);

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("sessionName"));
    m_name->setPlaceholderText(tr("optional; names the capture and its session"));

    m_target = new QComboBox(this);
    m_target->setEditable(true);
    m_target->setObjectName(QStringLiteral("target"));
    m_target->addItem(tr("This computer"), QString());
    for (const std::string& h : remote::configuredHosts(local(QDir::homePath() + QStringLiteral("/.ssh/config"))))
        m_target->addItem(QString::fromStdString(h), QString::fromStdString(h));
    m_target->setToolTip(tr("Where the program runs: this computer, or an SSH host (from ~/.ssh/config, or type "
                            "user@host). The host needs warpscope-capture and a CUDA driver; your own ssh keys, agent "
                            "and known_hosts are used, and no password is asked or kept."));

    m_deploy = new QCheckBox(tr("&Deploy the capture tools when the host has none"), this);
    m_deploy->setObjectName(QStringLiteral("deploy"));
    m_deploy->setToolTip(tr("Copies warpscope-capture, wscap-dump and the injection library of this installation into "
                            "the host's ~/.cache/warpscope/bin before capturing, when the host has no "
                            "warpscope-capture."));
    m_deploy->setEnabled(false);
    connect(m_target, &QComboBox::currentTextChanged, this, [this] { m_deploy->setEnabled(!targetHost().isEmpty()); });
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(m_target, 1);
    targetRow->addWidget(m_deploy);
    auto* targetLabel = new QLabel(tr("&Target:"), this);
    targetLabel->setBuddy(m_target);

    auto* form = new QFormLayout;
    form->addRow(targetLabel, targetRow);
    // Rows holding a layout need their own label with a buddy, or the '&' shows as text.
    auto* programLabel = new QLabel(tr("&Program:"), this);
    programLabel->setBuddy(m_program);
    form->addRow(programLabel, programRow);
    form->addRow(tr("&Arguments:"), m_arguments);
    auto* dirLabel = new QLabel(tr("&Working directory:"), this);
    dirLabel->setBuddy(m_workingDir);
    form->addRow(dirLabel, dirRow);
    form->addRow(tr("&Environment:"), m_environment);
    form->addRow(tr("Session &name:"), m_name);

    // What to record; names and defaults come from the stream format's activity list.
    auto* activities = new QGroupBox(tr("Record"), this);
    auto* grid = new QGridLayout(activities);
    const std::pair<const char*, QString> labels[] = {
        {"kernel", tr("Kernels")},
        {"memcpy", tr("Memory copies")},
        {"memset", tr("Memory sets")},
        {"launches", tr("Kernel launches, copies and waits (at the driver: every library's)")},
        {"runtime", tr("CUDA runtime API (up to 1 µs more per CUDA call)")},
        {"driver", tr("CUDA driver API (all calls)")},
        {"sync", tr("Synchronization")},
        {"memory", tr("Allocations and frees")},
        {"nvtx", tr("NVTX ranges and marks")},
        {"overhead", tr("CUPTI overhead")},
        {"nvml", tr("GPU metrics (NVML: power, clocks, utilization, memory, temperature)")},
        {"pm", tr("PM sampling (SM, tensor and DRAM activity; needs profiling permission)")},
        {"extcorr", tr("External correlation ids")},
        {"allapi", tr("Query-only API calls (cudaGetDevice, …)")},
        {"stacks", tr("Native call stacks at kernel launches (file:line with debug info; slows launches)")},
        {"pystacks", tr("Python call stacks of launches, copies and allocations (read at each CUDA call; up to 1.16x of a step)")},
        {"pysample", tr("Python stack samples of every thread, 1000 per second (what the host does between CUDA calls; "
                        "read from a thread of its own)")},
        {"host", tr("Host CPU and memory (the program and its DataLoader workers, from /proc at the metric rate)")},
        {"collectives", tr("NCCL collectives: sizes, data types and communicators (NCCL 2.28 or newer)")},
        {"graphs", tr("CUDA graphs: where each node was captured, so every replay has its operators and lines")},
        {"graphtrace", tr("CUDA graph replays as one span each, without their nodes (less per replay)")},
    };
    // The nine common kinds in a 3x3 grid, the longer opt-in ones below, one per row.
    int cell = 0, wideRow = 3;
    for (const auto& [key, label] : labels) {
        uint32_t bits = 0;
        for (const wscap::ActivityName& a : wscap::kActivityNames)
            if (std::string_view(a.name) == key)
                bits = a.bits;
        auto* box = new QCheckBox(label, activities);
        box->setObjectName(QStringLiteral("activity_") + QLatin1String(key));
        box->setChecked((wscap::kDefaultActivities & bits) == bits);
        if (cell < 9) {
            grid->addWidget(box, cell / 3, cell % 3);
            ++cell;
        } else {
            grid->addWidget(box, wideRow++, 0, 1, 3);
        }
        m_activities.emplace_back(box, bits);
    }

    m_sampleHz = new QSpinBox(this);
    m_sampleHz->setObjectName(QStringLiteral("sampleHz"));
    m_sampleHz->setRange(0, 1000);
    m_sampleHz->setValue(10);
    m_sampleHz->setSuffix(tr(" Hz"));
    m_sampleHz->setSpecialValueText(tr("off"));
    m_delay = new QDoubleSpinBox(this);
    m_delay->setObjectName(QStringLiteral("startDelay"));
    m_delay->setRange(0, 86400);
    m_delay->setDecimals(1);
    m_delay->setSuffix(tr(" s"));
    m_delay->setSpecialValueText(tr("none"));
    m_duration = new QDoubleSpinBox(this);
    m_duration->setObjectName(QStringLiteral("durationLimit"));
    m_duration->setRange(0, 86400);
    m_duration->setDecimals(1);
    m_duration->setSuffix(tr(" s"));
    m_duration->setSpecialValueText(tr("no limit"));
    m_profilerRange = new QCheckBox(tr("Only between cudaProfilerStart and cudaProfilerStop"), this);
    m_profilerRange->setObjectName(QStringLiteral("profilerRange"));
    m_profilerRange->setToolTip(tr("Records only while the program is between its calls of cudaProfilerStart and "
                                   "cudaProfilerStop (torch.cuda.profiler.start() and stop()), as often as it makes "
                                   "them. Outside them the capture costs almost nothing. Nothing is recorded if "
                                   "the program never calls cudaProfilerStart."));
    m_torchOps = new QComboBox(this);
    m_torchOps->setObjectName(QStringLiteral("torchOps"));
    m_torchOps->addItem(tr("off"));
    m_torchOps->addItem(tr("operators (PyTorch's ITT range per operator)"));
    m_torchOps->addItem(tr("operators and input shapes (NVTX range per operator)"));
    m_torchOps->setToolTip(tr("For PyTorch programs: which operator launched each kernel, with no change to the "
                              "program (PyTorch's own range per operator, switched on at start-up). Operators are "
                              "recorded while the launches are new (the first steps, a new phase); a later launch "
                              "takes the operator of the same launch before. With Python call stacks 1.0-1.15x of a "
                              "training step, against torch.profiler's 1.2-1.9x. Shapes record every operator "
                              "(1.5x or more). Records NVTX."));
    m_stepFunction = new QLineEdit(this);
    m_stepFunction->setObjectName(QStringLiteral("stepFunction"));
    m_stepFunction->setPlaceholderText(tr("automatic (the repeating launch pattern)"));
    m_stepFunction->setToolTip(tr("For Python 3.12+ programs: every call of the function with this name (train_step, "
                                  "or a qualified name such as Trainer.step) is one training step in the Overview. "
                                  "Costs one event per call of that function; records NVTX."));
    auto* timing = new QFormLayout;
    timing->addRow(tr("PyTorch &operators:"), m_torchOps);
    timing->addRow(tr("Step &function:"), m_stepFunction);
    timing->addRow(tr("Metric &sampling rate:"), m_sampleHz);
    timing->addRow(tr("Start &delay:"), m_delay);
    timing->addRow(tr("D&uration limit:"), m_duration);
    timing->addRow(tr("Capture &range:"), m_profilerRange);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_live = new QLabel(this);
    m_live->setObjectName(QStringLiteral("liveStatus"));

    m_start = new QPushButton(tr("&Start Capture"), this);
    m_start->setObjectName(QStringLiteral("start"));
    m_start->setDefault(true);
    m_stop = new QPushButton(tr("S&top"), this);
    m_stop->setObjectName(QStringLiteral("stop"));
    m_stop->setEnabled(false);
    m_close = new QPushButton(tr("Close"), this);
    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_start, QDialogButtonBox::ActionRole);
    buttons->addButton(m_stop, QDialogButtonBox::ActionRole);
    buttons->addButton(m_close, QDialogButtonBox::RejectRole);
    connect(m_start, &QPushButton::clicked, this, &NewCaptureDialog::startCapture);
    connect(m_stop, &QPushButton::clicked, this, &NewCaptureDialog::stopCapture);
    connect(m_close, &QPushButton::clicked, this, &NewCaptureDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(activities);
    layout->addLayout(timing);
    layout->addWidget(m_status);
    layout->addWidget(m_live);
    layout->addWidget(buttons);

    m_timer = new QTimer(this);
    m_timer->setInterval(kPollMs);
    connect(m_timer, &QTimer::timeout, this, &NewCaptureDialog::poll);

    m_outputBase = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/captures");
    loadSettings();
}

NewCaptureDialog::~NewCaptureDialog() {
    if (m_symbolizer.joinable())
        m_symbolizer.join();
    if (m_checker.joinable())
        m_checker.join();
}

void NewCaptureDialog::setProgram(const QString& program) { m_program->setCurrentText(program); }
void NewCaptureDialog::setArguments(const QString& arguments) { m_arguments->setText(arguments); }
void NewCaptureDialog::setOutputBase(const QString& directory) { m_outputBase = directory; }
void NewCaptureDialog::setTarget(const QString& host) {
    if (host.isEmpty())
        m_target->setCurrentIndex(0);
    else
        m_target->setCurrentText(host);
}
bool NewCaptureDialog::isRunning() const { return (m_launcher && m_launcher->running()) || m_remote || m_checking; }

QString NewCaptureDialog::targetHost() const {
    if (m_target->currentText() == m_target->itemText(0))
        return {};
    return m_target->currentText().trimmed();
}
QString NewCaptureDialog::statusText() const { return m_status->text(); }

uint32_t NewCaptureDialog::activityBits() const {
    uint32_t bits = 0;
    for (const auto& [box, bit] : m_activities)
        if (box->isChecked())
            bits |= bit;
    return bits;
}

void NewCaptureDialog::setStatus(const QString& text, bool error) {
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void NewCaptureDialog::setRunning(bool running) {
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    m_deploy->setEnabled(!running && !targetHost().isEmpty());
    for (QWidget* w : std::initializer_list<QWidget*>{m_target, m_program, m_arguments, m_workingDir, m_environment, m_name,
                                                      m_sampleHz, m_torchOps, m_stepFunction, m_delay, m_duration,
                                                      m_profilerRange})
        w->setEnabled(!running);
    for (const auto& [box, bit] : m_activities)
        box->setEnabled(!running);
}

bool NewCaptureDialog::startCapture() {
    if (isRunning())
        return false;
    const QString program = m_program->currentText().trimmed();
    if (program.isEmpty()) {
        setStatus(tr("Enter the program to capture."), true);
        return false;
    }
    if (activityBits() == 0) {
        setStatus(tr("Choose at least one kind of activity to record."), true);
        return false;
    }

    std::string why, injectPath;
    const QString workDir = m_workingDir->text().trimmed();
    LaunchSpec spec;
    spec.program = local(program);
    if (!capturesetup::splitArguments(m_arguments->text().toStdString(), &spec.args, &why)) {
        setStatus(tr("The arguments cannot be split into words: %1.").arg(QString::fromStdString(why)), true);
        return false;
    }
    spec.workingDirectory = local(workDir);
    const QStringList lines = m_environment->toPlainText().split(QLatin1Char('\n'));
    std::vector<std::pair<std::string, std::string>> extra;
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            setStatus(tr("Environment line %1 is not NAME=VALUE: %2").arg(i + 1).arg(line), true);
            return false;
        }
        extra.emplace_back(line.left(eq).trimmed().toStdString(), line.mid(eq + 1).toStdString());
    }
    if (const QString host = targetHost(); !host.isEmpty())
        return startRemote(host, program, workDir, extra, spec.args);

    // What can be known before running anything.
    const std::string exeDir = local(QCoreApplication::applicationDirPath());
    std::vector<std::string> dirs = capturesetup::defaultSearchDirs(exeDir, "lib");
    dirs.push_back(exeDir + "/../../capture"); // a build tree: build/app/gui next to build/capture
    if (!capturesetup::findInjectLibrary({}, dirs, "warpscope", &injectPath, &why)) {
        setStatus(tr("Capture is not available in this build: the CUPTI injection library "
                     "(libwarpscope_inject.so) was not found. Build Warpscope with the CUDA toolkit, or set "
                     "WARPSCOPE_INJECT_LIBRARY to the library's path."),
                  true);
        return false;
    }
    if (!capturesetup::cudaDriverAvailable(&why)) {
        setStatus(tr("No CUDA driver on this machine (%1). Capture needs an NVIDIA GPU with its driver installed.")
                      .arg(QString::fromStdString(why)),
                  true);
        return false;
    }
    if (!workDir.isEmpty() && !QFileInfo(workDir).isDir()) {
        setStatus(tr("The working directory %1 does not exist.").arg(workDir), true);
        return false;
    }
    const QString found = program.contains(QLatin1Char('/'))
                              ? (QFileInfo(QDir(workDir.isEmpty() ? QDir::currentPath() : workDir), program).isExecutable()
                                     ? program
                                     : QString())
                              : QStandardPaths::findExecutable(program);
    if (found.isEmpty()) {
        setStatus(tr("Program not found: %1. Check the name, or give its full path.").arg(program), true);
        return false;
    }

    const QString dir = makeCaptureDir(&why);
    if (dir.isEmpty()) {
        setStatus(tr("Cannot create the capture folder: %1").arg(QString::fromStdString(why)), true);
        return false;
    }


    CaptureSettings settings;
    settings.outputDir = local(QFileInfo(dir).absoluteFilePath());
    settings.activityBits = activityBits();
    settings.sampleHz = m_sampleHz->value();
    settings.delaySeconds = m_delay->value();
    settings.durationSeconds = m_duration->value();
    settings.profilerApiRange = m_profilerRange->isChecked();
    settings.name = m_name->text().trimmed().toStdString();
    settings.torchOps = m_torchOps->currentIndex();
    settings.stepFunction = m_stepFunction->text().trimmed().toStdString();
    if (settings.torchOps > 0 || !settings.stepFunction.empty())
        settings.activityBits |= wscap::ActNvtx; // operators and marked steps arrive as NVTX ranges
    if (!capturesetup::prepareTorchHook(settings, &why)) {
        setStatus(tr("Cannot prepare the Python start-up hook: %1").arg(QString::fromStdString(why)), true);
        return false;
    }
    spec.environment = capturesetup::environment(settings, injectPath);
    spec.environment.insert(spec.environment.begin(), extra.begin(), extra.end()); // ours win

    auto launcher = std::make_unique<Launcher>();
    if (!launcher->start(spec, &why)) {
        QDir().rmdir(dir);
        setStatus(tr("Could not start %1: %2").arg(program, QString::fromStdString(why)), true);
        return false;
    }
    saveSettings();
    m_launcher = std::move(launcher);
    m_progress = std::make_unique<StreamProgress>();
    m_lastBytes = 0;
    m_outputDir = dir;
    m_programName = QFileInfo(program).fileName();
    m_stopping = false;
    m_elapsed.start();
    setRunning(true);
    setStatus(tr("Capturing %1 into %2…").arg(m_programName, QDir::toNativeSeparators(dir)), false);
    m_live->clear();
    m_timer->start(); // the first poll comes from the event loop: no signal is emitted from here
    return true;
}

// A fresh directory per capture: <base>/<date-time>[-name]; empty with *why when it cannot be made.
QString NewCaptureDialog::makeCaptureDir(std::string* why) {
    QString dirName = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString safeName = m_name->text().trimmed();
    safeName.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
    if (!safeName.isEmpty())
        dirName += QLatin1Char('-') + safeName;
    QString dir = m_outputBase + QLatin1Char('/') + dirName;
    for (int n = 2; QFileInfo::exists(dir); ++n)
        dir = m_outputBase + QLatin1Char('/') + dirName + QLatin1Char('-') + QString::number(n);
    if (!capturesetup::makeDirectories(local(dir), why))
        return {};
    return dir;
}

bool NewCaptureDialog::startRemote(const QString& host, const QString& program, const QString& workDir,
                                   const std::vector<std::pair<std::string, std::string>>& extraEnv,
                                   std::vector<std::string> args) {
    // The recording options, as warpscope-capture on the host takes them.
    std::vector<std::string> options = {"--activities", wscap::activitiesToString(activityBits())};
    options.insert(options.end(), {"--sample-hz", std::to_string(m_sampleHz->value())});
    if (m_delay->value() > 0)
        options.insert(options.end(), {"--delay", std::to_string(m_delay->value())});
    if (m_duration->value() > 0)
        options.insert(options.end(), {"--duration", std::to_string(m_duration->value())});
    if (m_profilerRange->isChecked())
        options.push_back("--capture-range=cudaProfilerApi");
    if (const QString name = m_name->text().trimmed(); !name.isEmpty())
        options.insert(options.end(), {"--name", name.toStdString()});
    if (m_torchOps->currentIndex() > 0)
        options.push_back(m_torchOps->currentIndex() == 2 ? "--torch-ops=shapes" : "--torch-ops");
    if (const QString step = m_stepFunction->text().trimmed(); !step.isEmpty())
        options.insert(options.end(), {"--step-function", step.toStdString()});
    // The working directory and environment additions apply there, through env(1).
    std::vector<std::string> command;
    if (!workDir.isEmpty() || !extraEnv.empty()) {
        command.push_back("env");
        if (!workDir.isEmpty())
            command.insert(command.end(), {"-C", workDir.toStdString()});
        for (const auto& [k, v] : extraEnv)
            command.push_back(k + "=" + v);
    }
    command.push_back(program.toStdString());
    command.insert(command.end(), args.begin(), args.end());

    std::string why;
    const QString dir = makeCaptureDir(&why);
    if (dir.isEmpty()) {
        setStatus(tr("Cannot create the capture folder: %1").arg(QString::fromStdString(why)), true);
        return false;
    }
    const QString remoteDir = QString::fromStdString(remote::defaultRemoteDir(local(dir)));
    const std::string remoteCommand = remote::streamCommand({}, remoteDir.toStdString(), options, command);
    m_checking = true;
    m_runHost = host;
    m_programName = QFileInfo(program).fileName();
    setRunning(true);
    setStatus(tr("Checking %1…").arg(host), false);
    if (m_checker.joinable())
        m_checker.join();
    // An ssh round trip: off the GUI thread.
    const bool deploy = m_deploy->isChecked();
    // The capture tools to deploy: WARPSCOPE_DEPLOY_TOOLS (e.g. capture/package/build_portable.sh's
    // folder, for hosts older than this machine), else this installation's: beside this program, or
    // in a build tree's capture/.
    const QString exeDir = QCoreApplication::applicationDirPath();
    const QString portable = qEnvironmentVariable("WARPSCOPE_DEPLOY_TOOLS");
    const QString tools = !portable.isEmpty() ? portable
                          : QFileInfo::exists(exeDir + QStringLiteral("/warpscope-capture"))
                              ? exeDir
                              : QDir::cleanPath(exeDir + QStringLiteral("/../../capture"));
    m_checker = std::thread([this, host, remoteCommand, dir, remoteDir, deploy, tools] {
        remote::HostCheck check = remote::checkHost(host.toStdString(), {});
        if (deploy && check.missing) {
            std::string problem;
            if (remote::deploy(host.toStdString(), local(tools), &problem))
                check = remote::checkHost(host.toStdString(), {});
            else
                check.message = tr("Cannot deploy to %1: %2").arg(host, QString::fromStdString(problem)).toStdString();
        }
        QMetaObject::invokeMethod(this, [this, check, host, remoteCommand, dir, remoteDir] {
            m_checking = false;
            if (!check.ok) {
                QDir().rmdir(dir);
                setRunning(false);
                setStatus(QString::fromStdString(check.message), true);
                return;
            }
            runRemote(host, remoteCommand, dir, remoteDir);
        }, Qt::QueuedConnection);
    });
    return true;
}

void NewCaptureDialog::runRemote(const QString& host, const std::string& command, const QString& dir,
                                 const QString& remoteDir) {
    auto run = std::make_unique<remote::RemoteRun>();
    std::string why;
    if (!run->start(host.toStdString(), command, remoteDir.toStdString(), local(dir), &why)) {
        QDir().rmdir(dir);
        setRunning(false);
        setStatus(tr("Could not run ssh: %1").arg(QString::fromStdString(why)), true);
        return;
    }
    saveSettings();
    m_remote = std::move(run);
    m_progress = std::make_unique<StreamProgress>();
    m_lastBytes = 0;
    m_outputDir = dir;
    m_stopping = false;
    m_elapsed.start();
    setStatus(tr("Capturing %1 on %2 into %3…").arg(m_programName, host, QDir::toNativeSeparators(dir)), false);
    m_live->clear();
    m_timer->start();
}

void NewCaptureDialog::finishRemote() {
    const remote::RemoteRun::State state = m_remote->state();
    const int code = m_remote->exitCode();
    const QString problem = QString::fromStdString(m_remote->problem());
    if (state == remote::RemoteRun::State::Exited) {
        finish(code > 128, code > 128 ? code - 128 : code);
        return;
    }
    m_timer->stop();
    m_remote.reset();
    setRunning(false);
    m_progress->poll(local(m_outputDir));
    setStatus(tr("%1 (%2 stream(s) arrived in %3)")
                  .arg(problem)
                  .arg(m_progress->streams())
                  .arg(QDir::toNativeSeparators(m_outputDir)),
              true);
    emit captureFailed(problem);
}

void NewCaptureDialog::poll() {
    if (m_remote && !m_remote->pump(0)) {
        finishRemote();
        return;
    }
    if (!m_launcher && !m_remote)
        return;
    m_progress->poll(local(m_outputDir));
    if (m_progress->bytes() != m_lastBytes) {
        m_lastBytes = m_progress->bytes();
        emit captureGrowing(m_outputDir);
    }
    m_live->setText(tr("%1 s · %2 stream(s) · %3 records · %4 MB · %5 dropped")
                        .arg(QString::number(static_cast<double>(m_elapsed.elapsed()) / 1000.0, 'f', 1))
                        .arg(m_progress->streams())
                        .arg(m_progress->records())
                        .arg(QString::number(static_cast<double>(m_progress->bytes()) / 1e6, 'f', 1))
                        .arg(m_progress->dropped()));
    if (m_launcher)
        if (const std::optional<ExitStatus> st = m_launcher->poll())
            finish(st->signaled, st->signaled ? st->signal : st->code);
}

void NewCaptureDialog::stopCapture() {
    if (!isRunning())
        return;
    m_stopping = true;
    if (m_remote) { // the host stops it; a second request there kills its process group
        m_remote->requestStop();
        setStatus(tr("Stopping %1 on %2…").arg(m_programName, m_runHost), false);
        QTimer::singleShot(kStopGraceMs, this, [this] {
            if (m_remote)
                m_remote->requestStop();
        });
        return;
    }
    if (!m_launcher)
        return;
    const pid_t pid = m_launcher->pid();
    ::kill(-pid, SIGINT);
    setStatus(tr("Stopping %1…").arg(m_programName), false);
    // Still there after the grace period: kill the whole process group.
    QTimer::singleShot(kStopGraceMs, this, [this, pid] {
        if (isRunning() && m_launcher->pid() == pid)
            ::kill(-pid, SIGKILL);
    });
}

void NewCaptureDialog::finish(bool signaled, int code) {
    m_timer->stop();
    const qint64 ms = m_elapsed.elapsed();
    m_progress->poll(local(m_outputDir));
    m_launcher.reset();
    const bool remoteRun = m_remote != nullptr;
    m_remote.reset();
    setRunning(false);
    const QString how = signaled ? tr("killed by signal %1").arg(code) : tr("exit status %1").arg(code);

    if (m_progress->streams() == 0) {
        QDir().rmdir(m_outputDir);
        QString message;
        if (m_stopping)
            message = tr("Stopped before %1 initialized CUDA: nothing was captured.").arg(m_programName);
        else if (ms < kExitedAtOnceMs && (signaled || code != 0))
            message = tr("%1 exited at once (%2) before it initialized CUDA: nothing was captured. "
                         "Check the program, its arguments and its working directory.")
                          .arg(m_programName, how);
        else
            message = tr("%1 ended (%2) without initializing CUDA, or it removed CUDA_INJECTION64_PATH from its "
                         "environment: nothing was captured.")
                          .arg(m_programName, how);
        setStatus(message, true);
        emit captureFailed(message);
        return;
    }

    QString message = tr("Capture finished (%1): %2 stream(s), %3 records, %4 dropped.")
                          .arg(how)
                          .arg(m_progress->streams())
                          .arg(m_progress->records())
                          .arg(m_progress->dropped());
    bool permission = false;
    QStringList problems;
    for (const StreamProgress::Problem& p : m_progress->problems()) {
        const QString text = QString::fromStdString(p.text);
        if (text.contains(QLatin1String("INSUFFICIENT_PRIVILEGES")) || text.contains(QLatin1String("NVGPUCTRPERM")))
            permission = true;
        else if (problems.size() < 3)
            problems << text;
    }
    if (permission)
        message += QLatin1Char(' ') +
                   tr("GPU performance counters are restricted to admin users (ERR_NVGPUCTRPERM), so what needed "
                      "them was skipped. Fix: run as root, or load the NVIDIA driver with "
                      "NVreg_RestrictProfilingToAdminUsers=0 (https://developer.nvidia.com/ERR_NVGPUCTRPERM).");
    for (const QString& p : problems)
        message += QLatin1Char('\n') + tr("Capture problem: %1").arg(p);
    // A remote capture's stacks were symbolized on its host, against its own binaries.
    if (!(activityBits() & wscap::ActStacks) || remoteRun) {
        setStatus(message, permission || !problems.isEmpty());
        emit captureFinished(m_outputDir);
        return;
    }
    // Launch stacks are addresses until addr2line names them, now that the target has exited; a
    // few seconds for a large run, so off the GUI thread.
    const std::string tool = stacksymbolizer::findAddr2Line();
    if (tool.empty())
        message += QLatin1Char('\n') + tr("addr2line was not found: native call stacks show module+offset.");
    const bool warn = permission || !problems.isEmpty() || tool.empty();
    setStatus(tr("Resolving native call stacks to file and line…"), false);
    if (m_symbolizer.joinable())
        m_symbolizer.join();
    m_symbolizer = std::thread([this, tool, files = capturesetup::captureFiles(local(m_outputDir)), message, warn] {
        for (const std::string& f : files) {
            stacksymbolizer::Result result;
            std::string error;
            if (!tool.empty())
                stacksymbolizer::symbolizeStream(f, tool, &result, &error);
        }
        QMetaObject::invokeMethod(this, [this, message, warn] {
            setStatus(message, warn);
            emit captureFinished(m_outputDir);
        }, Qt::QueuedConnection);
    });
}

void NewCaptureDialog::reject() {
    // Closing while the target runs ends it: the Launcher kills and reaps its process group; a
    // remote one is asked twice to stop (SIGKILL there), given a moment to say it has.
    if (m_remote) {
        m_remote->requestStop();
        m_remote->requestStop();
        QElapsedTimer waited;
        waited.start();
        while (m_remote->pump(50) && waited.elapsed() < 2000) {
        }
        m_remote.reset();
    }
    if (m_launcher && m_launcher->running()) {
        m_timer->stop();
        m_launcher.reset();
        m_progress.reset();
        setRunning(false);
    }
    QDialog::reject();
}

void NewCaptureDialog::loadSettings() {
    QSettings s;
    s.beginGroup(QStringLiteral("capture"));
    for (const QString& h : s.value(QStringLiteral("recentHosts")).toStringList())
        if (m_target->findText(h) < 0)
            m_target->addItem(h, h);
    setTarget(s.value(QStringLiteral("target")).toString());
    const QStringList recent = s.value(QStringLiteral("recentPrograms")).toStringList();
    m_program->addItems(recent);
    m_program->setCurrentText(s.value(QStringLiteral("program")).toString());
    m_arguments->setText(s.value(QStringLiteral("arguments")).toString());
    m_workingDir->setText(s.value(QStringLiteral("workingDirectory")).toString());
    m_environment->setPlainText(s.value(QStringLiteral("environment")).toString());
    m_name->setText(s.value(QStringLiteral("name")).toString());
    m_sampleHz->setValue(s.value(QStringLiteral("sampleHz"), m_sampleHz->value()).toInt());
    m_delay->setValue(s.value(QStringLiteral("startDelay"), 0.0).toDouble());
    m_duration->setValue(s.value(QStringLiteral("durationLimit"), 0.0).toDouble());
    m_profilerRange->setChecked(s.value(QStringLiteral("profilerRange"), false).toBool());
    m_torchOps->setCurrentIndex(std::clamp(s.value(QStringLiteral("torchOps"), 0).toInt(), 0, m_torchOps->count() - 1));
    m_stepFunction->setText(s.value(QStringLiteral("stepFunction")).toString());
    if (s.contains(QStringLiteral("activities"))) {
        uint32_t bits = 0;
        std::string bad;
        if (wscap::parseActivities(s.value(QStringLiteral("activities")).toString().toStdString(), &bits, &bad))
            for (const auto& [box, bit] : m_activities)
                box->setChecked((bits & bit) == bit);
    }
}

void NewCaptureDialog::saveSettings() const {
    QSettings s;
    s.beginGroup(QStringLiteral("capture"));
    const QString program = m_program->currentText().trimmed();
    QStringList recent = s.value(QStringLiteral("recentPrograms")).toStringList();
    recent.removeAll(program);
    recent.prepend(program);
    while (recent.size() > kMaxRecentPrograms)
        recent.removeLast();
    s.setValue(QStringLiteral("recentPrograms"), recent);
    const QString host = targetHost();
    s.setValue(QStringLiteral("target"), host);
    if (!host.isEmpty()) {
        QStringList hosts = s.value(QStringLiteral("recentHosts")).toStringList();
        hosts.removeAll(host);
        hosts.prepend(host);
        while (hosts.size() > kMaxRecentPrograms)
            hosts.removeLast();
        s.setValue(QStringLiteral("recentHosts"), hosts);
    }
    s.setValue(QStringLiteral("program"), program);
    s.setValue(QStringLiteral("arguments"), m_arguments->text());
    s.setValue(QStringLiteral("workingDirectory"), m_workingDir->text());
    s.setValue(QStringLiteral("environment"), m_environment->toPlainText());
    s.setValue(QStringLiteral("name"), m_name->text());
    s.setValue(QStringLiteral("sampleHz"), m_sampleHz->value());
    s.setValue(QStringLiteral("startDelay"), m_delay->value());
    s.setValue(QStringLiteral("durationLimit"), m_duration->value());
    s.setValue(QStringLiteral("profilerRange"), m_profilerRange->isChecked());
    s.setValue(QStringLiteral("torchOps"), m_torchOps->currentIndex());
    s.setValue(QStringLiteral("stepFunction"), m_stepFunction->text().trimmed());
    s.setValue(QStringLiteral("activities"), QString::fromStdString(wscap::activitiesToString(activityBits())));
}

} // namespace ws
