#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <QString>

#include <memory>
#include <thread>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTimer;

namespace ws {

class Launcher;
class StreamProgress;
namespace remote {
class RemoteRun;
}

/*
 * File > New Capture: runs a program under the CUPTI injection library (capture/launch, shared with
 * warpscope-capture) and hands the capture directory to the main window when it ends.
 *
 * Form: program, arguments, working directory, environment additions (NAME=VALUE per line),
 * activities, NVML sampling rate, start delay, duration limit, session name; the last settings and
 * recent programs are kept in QSettings ("capture/..."). Start checks what can be known before
 * running (injection library present, CUDA driver loadable, program found) and says so in plain
 * words; while the target runs, a QTimer polls it (never blocking the GUI thread) and the streams
 * it writes (StreamProgress: elapsed time, streams, records, MB, dropped). Stop sends SIGINT to the
 * target's process group, then SIGKILL after a grace period. Every capture gets its own directory
 * under the application data folder (captures/<date-time>).
 *
 * Target: this computer, or an SSH host (issue #26; hosts from ~/.ssh/config and the recent ones).
 * For a host, Start checks it off the GUI thread (remote::checkHost: reachable, logged in,
 * warpscope-capture there, a CUDA driver; one sentence per failure), then runs the program there
 * under warpscope-capture --stream; the streams arrive in the local capture folder as they are
 * recorded (remote::RemoteRun, pumped by the same timer), so progress, the end and the session are
 * as for a local capture. Stop asks the host to stop the program (SIGKILL at the second request);
 * a dropped connection leaves it running there and the status says how to fetch its capture.
 */
class NewCaptureDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewCaptureDialog(QWidget* parent = nullptr);
    ~NewCaptureDialog() override;

    // For tests and scripted use: fill the form.
    void setProgram(const QString& program);
    void setArguments(const QString& arguments);
    void setOutputBase(const QString& directory); // where capture directories are created
    void setTarget(const QString& host);          // "" = this computer

    bool isRunning() const;
    bool capturesHere() const { return targetHost().isEmpty(); } // not on an SSH host
    QString statusText() const;
    QString outputDirectory() const { return m_outputDir; }

public slots:
    // Starts the capture; false (with the reason in statusText()) when it could not start.
    bool startCapture();
    void stopCapture();

signals:
    // The target ended and left at least one capture stream in `directory`.
    void captureFinished(const QString& directory);
    // The target ended without a usable capture (statusText() says why).
    void captureFailed(const QString& message);
    // The capture folder grew while the target runs (a live view may import it again).
    void captureGrowing(const QString& directory);

protected:
    void reject() override;

private:
    void poll();
    void finish(bool signaled, int code);
    bool startRemote(const QString& host, const QString& program, const QString& workDir,
                     const std::vector<std::pair<std::string, std::string>>& extraEnv, std::vector<std::string> args);
    void runRemote(const QString& host, const std::string& command, const QString& dir, const QString& remoteDir);
    void finishRemote();
    QString targetHost() const;
    QString makeCaptureDir(std::string* why);
    void setStatus(const QString& text, bool error);
    void setRunning(bool running);
    void loadSettings();
    void saveSettings() const;
    uint32_t activityBits() const;

    QComboBox* m_target; // "This computer" or an SSH host
    QCheckBox* m_deploy; // copy the capture tools to a host that lacks them
    QComboBox* m_program;
    QLineEdit* m_arguments;
    QLineEdit* m_workingDir;
    QPlainTextEdit* m_environment;
    std::vector<std::pair<QCheckBox*, uint32_t>> m_activities;
    QSpinBox* m_sampleHz;
    QComboBox* m_torchOps; // PyTorch operators: off, operators, operators + input shapes
    QLineEdit* m_stepFunction; // Python function whose calls are steps; empty: automatic
    QDoubleSpinBox* m_delay;
    QDoubleSpinBox* m_duration;
    QCheckBox* m_profilerRange; // record only between cudaProfilerStart and cudaProfilerStop
    QLineEdit* m_name;
    QLabel* m_status;
    QLabel* m_live;
    QPushButton* m_start;
    QPushButton* m_stop;
    QPushButton* m_close;
    QTimer* m_timer;
    QElapsedTimer m_elapsed;
    QString m_outputBase;
    QString m_outputDir;
    QString m_programName;
    QString m_runHost; // the SSH host of the current capture; empty for this computer
    std::unique_ptr<Launcher> m_launcher;
    std::unique_ptr<remote::RemoteRun> m_remote;
    std::thread m_checker; // the SSH host check before a remote start
    bool m_checking = false;
    std::thread m_symbolizer; // resolves native call stacks after the target exits
    std::unique_ptr<StreamProgress> m_progress;
    bool m_stopping = false;
    uint64_t m_lastBytes = 0; // what the folder held at the last poll
    bool m_driverMissing = false;
};

} // namespace ws
