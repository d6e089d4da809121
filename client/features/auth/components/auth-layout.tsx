// The frame of the sign-in and sign-up pages: the form card (max 400px, one short column)
// beside an illustrated brand panel that only wide screens show.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/icons';
import { StockroomIllustration } from './stockroom-illustration';
import './auth.css';

export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <div className="auth-screen">
      <main className="auth-main">
        <Link to="/" className="brand auth-brand">
          <span className="brand-mark">
            <Icon name="box" size={18} />
          </span>
          <span>Stockroom</span>
        </Link>
        <div className="auth-card">
          <h1 className="auth-title">{title}</h1>
          <p className="auth-subtitle">{subtitle}</p>
          {children}
        </div>
        <p className="auth-footer">{footer}</p>
      </main>
      <aside className="auth-aside" aria-hidden="true">
        <div className="auth-aside-inner">
          <StockroomIllustration />
          <h2>Every shelf, live.</h2>
          <p>
            Stock levels, low-stock alerts and a full history of every change, shared by your whole team in real time.
          </p>
        </div>
      </aside>
    </div>
  );
}
