#include "open_url_dialog.h"

#include "remote/remote_url.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <thread>

namespace ws {

OpenUrlDialog::OpenUrlDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Open URL"));
    setObjectName(QStringLiteral("openUrlDialog"));
    auto* forms = new QLabel(
        tr("<p>A trace in object storage or on a web server:</p>"
           "<table>"
           "<tr><td><tt>s3://BUCKET/KEY</tt></td><td>Amazon S3 or an S3-compatible store (AWS_ENDPOINT_URL)</td></tr>"
           "<tr><td><tt>gs://BUCKET/KEY</tt></td><td>Google Cloud Storage (GOOGLE_APPLICATION_CREDENTIALS, or public)</td></tr>"
           "<tr><td><tt>az://ACCOUNT/CONTAINER/BLOB</tt></td><td>Azure Blob Storage (AZURE_STORAGE_CONNECTION_STRING)</td></tr>"
           "<tr><td><tt>https://ACCOUNT.blob.core.windows.net/…?SAS</tt></td><td>Azure with a SAS token</td></tr>"
           "<tr><td><tt>https://…</tt>, <tt>http://…</tt></td><td>a web server</td></tr>"
           "<tr><td><tt>ssh://[USER@]HOST/PATH</tt></td><td>a machine your ssh reaches (your keys, agent and "
           "~/.ssh/config; <tt>ssh://HOST/~/runs/</tt> is under your home there)</td></tr>"
           "</table>"
           "<p>A folder (a URL ending in <tt>/</tt>) opens the run of traces in it as a distributed job; "
           "List shows its runs and workers to pick from.</p>"
           "<p>Credentials come from where the clouds' own tools find them (AWS_ACCESS_KEY_ID, ~/.aws, "
           "AWS_PROFILE; a service-account key; a SAS token in the URL) and are never stored. The object is downloaded once; opening "
           "it again costs one request while it is unchanged, and works offline.</p>"),
        this);
    forms->setWordWrap(true);
    forms->setTextFormat(Qt::RichText);
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(tr("s3://bucket/run1/worker0.pt.trace.json.gz"));
    m_url->setMinimumWidth(520);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_problem->setWordWrap(true);
    m_list = new QPushButton(tr("&List"), this);
    m_list->setObjectName(QStringLiteral("list"));
    m_list->setToolTip(tr("Show the runs and workers under this folder"));
    connect(m_list, &QPushButton::clicked, this, &OpenUrlDialog::listFolder);
    m_runs = new QTreeWidget(this);
    m_runs->setObjectName(QStringLiteral("runs"));
    m_runs->setHeaderLabels({tr("Run / worker"), tr("Workers"), tr("Size")});
    m_runs->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_runs->header()->setStretchLastSection(false);
    m_runs->setRootIsDecorated(true);
    m_runs->setVisible(false);
    m_runs->setMinimumHeight(220);
    connect(m_runs, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) { itemPicked(item); });
    connect(m_runs, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        itemPicked(item);
        if (m_open->isEnabled())
            accept();
    });
    m_listStatus = new QLabel(this);
    m_listStatus->setObjectName(QStringLiteral("listStatus"));
    m_lister = [](const std::string& url) { return listRemoteFolder(url); };
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    m_open = buttons->button(QDialogButtonBox::Open);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_url, &QLineEdit::textChanged, this, &OpenUrlDialog::validate);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(forms);
    auto* row = new QHBoxLayout;
    row->addWidget(m_url, 1);
    row->addWidget(m_list);
    layout->addLayout(row);
    layout->addWidget(m_problem);
    layout->addWidget(m_listStatus);
    layout->addWidget(m_runs, 1);
    layout->addWidget(buttons);
    validate();
}

QString OpenUrlDialog::url() const { return m_url->text().trimmed(); }

void OpenUrlDialog::setUrl(const QString& url) { m_url->setText(url); }

void OpenUrlDialog::validate() {
    const std::string text = url().toStdString();
    std::string why;
    bool ok = false, folder = false;
    if (text.empty()) {
        m_problem->clear();
    } else if (!isRemoteUrl(text)) {
        m_problem->setText(tr("Not a URL: it must start with s3://, gs://, az://, https://, http:// or ssh://."));
    } else if (const auto parsed = parseRemoteUrl(text, {}, &why); !parsed) {
        m_problem->setText(tr("This URL cannot be opened: %1.").arg(QString::fromStdString(why)));
    } else {
        m_problem->clear();
        ok = true;
        folder = parsed->isPrefix();
    }
    m_open->setEnabled(ok);
    m_list->setEnabled(folder);
}

void OpenUrlDialog::listFolder() {
    const QString folder = url();
    const int request = ++m_listing;
    m_listStatus->setText(tr("Listing %1…").arg(QString::fromStdString(redactUrl(folder.toStdString()))));
    m_list->setEnabled(false);
    // The dialog may close before the store answers: the answer goes to the application's thread
    // and finds the dialog only if it still exists.
    std::thread([lister = m_lister, folder, request, dialog = QPointer<OpenUrlDialog>(this)] {
        const RemoteListing listing = lister(folder.toStdString());
        QMetaObject::invokeMethod(QCoreApplication::instance(), [dialog, folder, request, listing] {
            OpenUrlDialog* d = dialog.data();
            if (d != nullptr && d->m_listing == request)
                d->showListing(folder, listing);
        }, Qt::QueuedConnection);
    }).detach();
}

void OpenUrlDialog::showListing(const QString& folder, const RemoteListing& listing) {
    validate();
    m_runs->clear();
    if (!listing.error.empty()) {
        m_listStatus->setText(tr("Cannot list the folder: %1").arg(QString::fromStdString(listing.error)));
        m_runs->setVisible(false);
        emit listingShown();
        return;
    }
    // A run's URL is its folder's: the folder URL as typed (scheme, account, a SAS query kept)
    // with the part below the listed prefix appended.
    const std::string typed = folder.toStdString();
    const size_t query = typed.find('?');
    const std::string typedPath = typed.substr(0, query), typedQuery = query == std::string::npos ? "" : typed.substr(query);
    std::string why;
    const auto parsed = parseRemoteUrl(typed, {}, &why);
    const std::string prefix = parsed ? parsed->key : std::string();
    size_t traces = 0;
    for (const RemoteRun& run : listing.runs) {
        std::string below = run.prefix.substr(std::min(prefix.size(), run.prefix.size()));
        if (typed.rfind("http", 0) == 0) // an https URL's path is percent-encoded; s3:// and the like are not
            below = encodeKey(below);
        uint64_t runBytes = 0;
        for (const RemoteObject& worker : run.workers)
            runBytes += worker.size;
        auto* runItem = new QTreeWidgetItem(m_runs, {run.prefix.empty() ? tr("(top)") : QString::fromStdString(run.prefix),
                                                     QString::number(run.workers.size()),
                                                     QLocale().formattedDataSize(static_cast<qint64>(runBytes))});
        runItem->setData(0, Qt::UserRole, QString::fromStdString(typedPath + below + typedQuery));
        runItem->setToolTip(0, tr("Opens the run as a job, its workers as ranks"));
        runItem->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        runItem->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        for (const RemoteObject& worker : run.workers) {
            const std::string name = worker.key.substr(worker.key.rfind('/') + 1);
            auto* item = new QTreeWidgetItem(runItem, {QString::fromStdString(name), QString(),
                                                       QLocale().formattedDataSize(static_cast<qint64>(worker.size))});
            item->setData(0, Qt::UserRole, QString::fromStdString(worker.url));
            item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
            ++traces;
        }
        runItem->setExpanded(listing.runs.size() <= 4);
    }
    m_listStatus->setText(listing.runs.empty()
                              ? tr("No traces under this folder (objects listed: %1).").arg(listing.objects.size())
                              : tr("Runs: %1, traces: %2. Pick a run to open it as a job, or one worker.")
                                    .arg(listing.runs.size())
                                    .arg(traces));
    m_runs->setVisible(!listing.runs.empty());
    m_runs->resizeColumnToContents(1);
    m_runs->resizeColumnToContents(2);
    emit listingShown();
}

void OpenUrlDialog::itemPicked(QTreeWidgetItem* item) {
    if (item)
        m_url->setText(item->data(0, Qt::UserRole).toString());
}

} // namespace ws
