// The address of the museum's API (PUBLIC_READ=true there). An `api` query parameter on the
// page's URL overrides it: index.html?api=http://localhost:3000
window.MUSEUM_API_BASE = 'http://localhost:3000';
