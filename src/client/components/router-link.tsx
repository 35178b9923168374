import { Link } from 'react-router';
import type { LinkRenderer } from '#shared/views/profile-view.tsx';

/** The shared views' internal links (src/shared/views) as the router's Link: no page load. */
export const routerLink: LinkRenderer = ({ href, children, ...rest }) => (
  <Link to={href} {...rest}>
    {children}
  </Link>
);
