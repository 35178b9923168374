// The five pages the browser benchmarks measure (web vitals, first-route code): home, the busiest country,
// its first city, that country's first profile, and a search — found through the running app's own API.
async function post<T>(base: string, url: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as T;
}

export async function measuredPages(base: string): Promise<Array<[string, string]>> {
  const countries = (await (await fetch(`${base}/api/directory/countries`)).json()) as {
    data: Array<{ slug: string; count: number }>;
  };
  const country = [...countries.data].sort((a, b) => b.count - a.count)[0].slug;
  const nav = await post<{ places: Array<{ slug: string }> }>(base, '/api/directory/getNavigation', { country });
  const list = await post<{ data: Array<{ id: number }> }>(base, '/api/directory/getDirectory', { country });
  return [
    ['home', '/'],
    ['country', `/escorts/${country}`],
    ['city', `/escorts/${country}/${nav.places[0].slug}`],
    ['profile', `/profile/${list.data[0].id}`],
    ['search', '/search?q=london'],
  ];
}
