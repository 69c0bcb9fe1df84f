// The address of the museum's API (PUBLIC_READ=true there), set when the site is deployed. It is
// the only place the page takes it from: nothing in the page's URL changes it.
window.MUSEUM_API_BASE = 'http://localhost:3000';
// The museum's time zone (the API's MUSEUM_TIME_ZONE): "today" is the museum's, wherever the visitor is.
window.MUSEUM_TIME_ZONE = 'UTC';
