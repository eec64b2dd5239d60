export function Header() {
  return (
    <header className="app-header">
      <h1>Evident</h1>
      <p className="tagline">Private document Q&amp;A. Everything runs in this tab; no document leaves it.</p>
    </header>
  );
}
