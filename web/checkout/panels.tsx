import type { PublicSession } from './api';

/** The merchant's name and logo; while the session is open, the way back to the shop (`cancel_url`) above them. */
export function MerchantHeader({ session, back }: { session: PublicSession; back?: { href: string; text: string } }) {
  return (
    <header className="merchant">
      {back && (
        <p className="back">
          <a className="back-link" href={back.href}>
            <span className="back-arrow" aria-hidden="true">
              ←
            </span>
            {back.text}
          </a>
        </p>
      )}
      {session.merchant.logo_url && <img src={session.merchant.logo_url} alt="" className="merchant-logo" />}
      <h1>{session.merchant.name}</h1>
    </header>
  );
}

export function StatusPanel(props: {
  title: string;
  body: string;
  link?: { href: string; text: string };
  children?: React.ReactNode;
  /** h1 when the panel is the whole page (no merchant header above it). */
  heading?: 'h1' | 'h2';
  /** A state that changes by itself: screen readers announce the panel, and it is marked busy. */
  live?: boolean;
}) {
  const Heading = props.heading ?? 'h2';
  return (
    <section
      className="status-panel"
      aria-labelledby="status-title"
      {...(props.live ? { role: 'status', 'aria-live': 'polite' as const, 'aria-busy': true, 'data-testid': 'confirming' } : {})}
    >
      <Heading id="status-title">{props.title}</Heading>
      <p>{props.body}</p>
      {props.children}
      {props.link && (
        <a className="button-link" href={props.link.href}>
          {props.link.text}
        </a>
      )}
    </section>
  );
}
