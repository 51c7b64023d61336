"""The mirror page's files (HTML, CSS, JavaScript, icon), served as they are: no build step."""
