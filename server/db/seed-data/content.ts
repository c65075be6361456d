// Public content of the site: FAQ, blog, home page boxes, service highlights, partner logos and
// the about / why / terms pages. Split over several files to keep each readable; import from here.
export { faq } from './faq.ts'
export { blogPosts } from './blog-posts.ts'
export { homeBoxes, services, partnerLogos } from './home.ts'
export { aboutUs, whyWorkneer, terms, pageTitles } from './pages.ts'
