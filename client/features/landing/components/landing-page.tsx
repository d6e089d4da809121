// The landing page (/): header with section buttons and 'Get Started', the hero with
// 'Start For Free', About Us, the four features, and the footer. The mobile menu opens a
// panel with the same links. Kept light: no Firebase, no XState.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/icons';
import { ThemeToggle } from '../../../components/theme-toggle';
import { FEATURES } from './landing-copy';
import { HeroPreview } from './hero-preview';
import './landing.css';

const SECTIONS = [
  { id: 'home', label: 'Home' },
  { id: 'about', label: 'About Us' },
  { id: 'features', label: 'Features' },
] as const;

function scrollToSection(id: string) {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

export function LandingPage() {
  const [menuOpen, setMenuOpen] = useState(false);
  const year = new Date().getFullYear();

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const go = (id: string) => {
    setMenuOpen(false);
    scrollToSection(id);
  };

  return (
    <div className="landing">
      <header className="landing-header">
        <div className="landing-header-inner">
          <Link to="/" className="brand">
            <span className="brand-mark">
              <Icon name="box" size={18} />
            </span>
            <span>Stockroom</span>
          </Link>
          <nav className="landing-nav" aria-label="Sections">
            {SECTIONS.map((s) => (
              <button key={s.id} type="button" className="landing-nav-link" onClick={() => go(s.id)}>
                {s.label}
              </button>
            ))}
          </nav>
          <div className="landing-actions">
            <ThemeToggle />
            <Link to="/login" className="btn btn-ghost landing-signin">
              Sign in
            </Link>
            <Link to="/register" className="btn btn-primary landing-get-started">
              Get Started
            </Link>
            <button
              type="button"
              className="btn btn-icon btn-ghost landing-menu-button"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls="landing-mobile-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              <Icon name={menuOpen ? 'x' : 'menu'} size={22} />
            </button>
          </div>
        </div>
        {menuOpen ? (
          <nav id="landing-mobile-menu" className="landing-mobile-menu" aria-label="Menu">
            {SECTIONS.map((s) => (
              <button key={s.id} type="button" className="landing-mobile-link" onClick={() => go(s.id)}>
                {s.label}
              </button>
            ))}
            <Link to="/login" className="landing-mobile-link" onClick={() => setMenuOpen(false)}>
              Sign in
            </Link>
            <Link to="/register" className="btn btn-primary btn-block" onClick={() => setMenuOpen(false)}>
              Get Started
            </Link>
          </nav>
        ) : null}
      </header>

      <main>
        <section id="home" className="landing-hero">
          <div className="landing-hero-copy">
            <span className="eyebrow">
              <span className="eyebrow-dot" aria-hidden="true" /> Live inventory for store teams
            </span>
            <h1>Product Inventory, Simplified</h1>
            <p className="landing-lead">
              Track every item across your categories, see stock move the moment your team sells, restocks or counts,
              and get alerted before a shelf runs empty.
            </p>
            <div className="landing-cta">
              <Link to="/register" className="btn btn-primary btn-lg">
                Start For Free <Icon name="arrow-right" size={18} />
              </Link>
              <button type="button" className="btn btn-secondary btn-lg" onClick={() => go('features')}>
                See features
              </button>
            </div>
            <p className="landing-note">No credit card. Invite your team when you&apos;re ready.</p>
          </div>
          <HeroPreview />
        </section>

        <section id="about" className="landing-section landing-about">
          <div className="landing-section-head">
            <span className="section-kicker">About Us</span>
            <h2>Built for the people who keep shelves full</h2>
          </div>
          <div className="about-grid">
            <p>
              Stockroom started on a shop floor, where the stock sheet was always one sale behind. We built a place
              where managers and staff see the same numbers at the same time, and where every change keeps a record of
              who made it and why.
            </p>
            <ul className="about-points">
              <li>
                <Icon name="zap" size={18} /> Changes appear on every screen within a second.
              </li>
              <li>
                <Icon name="history" size={18} /> A full history of every item, field by field.
              </li>
              <li>
                <Icon name="shield" size={18} /> Managers decide who can do what.
              </li>
            </ul>
          </div>
        </section>

        <section id="features" className="landing-section">
          <div className="landing-section-head">
            <span className="section-kicker">Features</span>
            <h2>Everything a busy stockroom needs</h2>
          </div>
          <div className="feature-grid">
            {FEATURES.map((feature) => (
              <article key={feature.title} className="feature-card">
                <span className="feature-icon">
                  <Icon name={feature.icon} size={22} />
                </span>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </article>
            ))}
          </div>
        </section>

        <section className="landing-section landing-final">
          <h2>Ready to see your stock clearly?</h2>
          <Link to="/register" className="btn btn-primary btn-lg">
            Get Started
          </Link>
        </section>
      </main>

      <footer className="landing-footer">
        <span>© {year} Stockroom. All rights reserved.</span>
      </footer>
    </div>
  );
}
