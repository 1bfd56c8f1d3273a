package proto

import "context"

// ServiceWorkerRegistration is a registration
// (ServiceWorker.ServiceWorkerRegistration).
type ServiceWorkerRegistration struct {
	RegistrationID string `json:"registrationId"`
	ScopeURL       string `json:"scopeURL"`
	IsDeleted      bool   `json:"isDeleted"`
}

// ServiceWorkerVersion is one version of a registration's script
// (ServiceWorker.ServiceWorkerVersion), the parts cdpskill reads.
type ServiceWorkerVersion struct {
	// VersionID is a number, as a string: a newer version's is larger.
	VersionID      string `json:"versionId"`
	RegistrationID string `json:"registrationId"`
	ScriptURL      string `json:"scriptURL"`
	// RunningStatus is stopped, starting, running or stopping: Chrome
	// stops an idle worker and starts it again for the next event.
	RunningStatus string `json:"runningStatus"`
	// Status is new (its script is being fetched), installing,
	// installed, activating, activated or redundant.
	Status string `json:"status"`
	// ControlledClients are the target ids of the pages it controls.
	ControlledClients []string `json:"controlledClients"`
}

// ServiceWorkerEnable turns the domain's events on. Chrome then lists
// every registration (one workerRegistrationUpdated) and every live
// version (one workerVersionUpdated), a few milliseconds after its reply.
type ServiceWorkerEnable struct{}

func (p ServiceWorkerEnable) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "ServiceWorker.enable", p)
}

// ServiceWorkerDisable turns the domain's events off.
type ServiceWorkerDisable struct{}

func (p ServiceWorkerDisable) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "ServiceWorker.disable", p)
}

// ServiceWorkerUnregister removes the registration of a scope, as a
// page's registration.unregister() does: a worker that controls a page
// goes on doing so until the page is left or reloaded.
type ServiceWorkerUnregister struct {
	ScopeURL string `json:"scopeURL"`
}

func (p ServiceWorkerUnregister) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "ServiceWorker.unregister", p)
}

// ServiceWorkerStopAllWorkers stops every running service worker of the
// browser context; the next event starts them again.
type ServiceWorkerStopAllWorkers struct{}

func (p ServiceWorkerStopAllWorkers) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "ServiceWorker.stopAllWorkers", p)
}

// The ServiceWorker domain's events.
const (
	EventServiceWorkerWorkerRegistrationUpdated = "ServiceWorker.workerRegistrationUpdated"
	EventServiceWorkerWorkerVersionUpdated      = "ServiceWorker.workerVersionUpdated"
)

// ServiceWorkerWorkerRegistrationUpdated is
// ServiceWorker.workerRegistrationUpdated's params: the registrations
// that changed (after enable, all of them).
type ServiceWorkerWorkerRegistrationUpdated struct {
	Registrations []ServiceWorkerRegistration `json:"registrations"`
}

// ServiceWorkerWorkerVersionUpdated is ServiceWorker.workerVersionUpdated's
// params: the versions that changed (after enable, every live one).
type ServiceWorkerWorkerVersionUpdated struct {
	Versions []ServiceWorkerVersion `json:"versions"`
}
