#pragma once

#include "remote/remote_listing.h"

#include <QDialog>

#include <functional>
#include <string>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace ws {

/*
 * OpenUrlDialog: File > Open URL. One field for a trace in object storage or on a web server
 * (s3://, gs://, az://, Azure https, https://, http://), checked as it is typed (core/remote's
 * parser says what is wrong), with the forms and where credentials come from spelled out, so a
 * user needs no manual. Credentials are never asked for or stored here: they come from the
 * environment and the clouds' own configuration files.
 *
 * For a folder URL, List shows the traces under it as torch-tb-profiler did: runs (folders) and
 * their workers (files), listed off the GUI thread; picking a run puts its folder URL in the field
 * (it opens as a job), picking a worker its own URL, and a double-click opens it.
 */
class OpenUrlDialog : public QDialog {
    Q_OBJECT
public:
    explicit OpenUrlDialog(QWidget* parent = nullptr);
    QString url() const;
    void setUrl(const QString& url);
    // What List calls (on a worker thread); listRemoteFolder unless a test sets another.
    using Lister = std::function<RemoteListing(const std::string& url)>;
    void setLister(Lister lister) { m_lister = std::move(lister); }
    // Starts listing the folder in the field (what the List button does).
    void listFolder();

signals:
    void listingShown(); // the runs of a listing (or its error) are on screen

private:
    void validate();
    void showListing(const QString& folder, const RemoteListing& listing);
    void itemPicked(QTreeWidgetItem* item);

    QLineEdit* m_url;
    QLabel* m_problem;
    QPushButton* m_open;
    QPushButton* m_list;
    QTreeWidget* m_runs;
    QLabel* m_listStatus;
    Lister m_lister;
    int m_listing = 0; // the listing request whose answer is awaited (later ones win)
};

} // namespace ws
